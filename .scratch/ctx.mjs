import puppeteer from 'puppeteer';
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
const srv = createServer((req, res) => { res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'sid=abc; Path=/' }); res.end('<!doctype html><form><input id=u><button>go</button></form><script>localStorage.x=1;sessionStorage.y=2</script>'); });
await new Promise((r) => srv.listen(0, '127.0.0.1', r)); const url = `http://127.0.0.1:${srv.address().port}/`;
const b = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, pipe: true, args: ['--no-sandbox','--disable-gpu','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync','--disable-dev-shm-usage','--disable-extensions','--headless', ...(process.env.XARGS ? process.env.XARGS.split(' ') : [])] });
const tree = () => { const pid = b.process().pid; let ticks = 0; const all = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  const kids = new Map(); for (const d of all) { try { const s = readFileSync(`/proc/${d}/stat`, 'utf8'); const f = s.slice(s.lastIndexOf(')') + 2).split(' '); kids.set(Number(d), { ppid: Number(f[1]), t: Number(f[11]) + Number(f[12]) }); } catch {} }
  const want = new Set([pid]); let grew = true; while (grew) { grew = false; for (const [p, v] of kids) if (!want.has(p) && want.has(v.ppid)) { want.add(p); grew = true; } }
  for (const p of want) ticks += kids.get(p)?.t ?? 0; return ticks * 10; };
const N = 15;
async function measure(name, fn) { await fn(); const c0 = tree(); const t0 = performance.now(); for (let i = 0; i < N; i++) await fn(); const w = (performance.now() - t0) / N; console.log(name, 'wall', w.toFixed(0), 'ms; chromium cpu', ((tree() - c0) / N).toFixed(0), 'ms'); }
await measure('fresh ctx+page+goto+close', async () => { const c = await b.createBrowserContext(); const p = await c.newPage(); await p.goto(url); await c.close(); });
const ctx = await b.createBrowserContext();
await measure('same ctx new page+goto+close', async () => { const p = await ctx.newPage(); await p.goto(url); await p.close(); });
const page = await ctx.newPage(); const cdp = await page.createCDPSession();
await measure('reuse page goto+wipe, no blank', async () => { await page.goto(url); await cdp.send('Network.clearBrowserCookies'); await cdp.send('Storage.clearDataForOrigin', { origin: new URL(url).origin, storageTypes: 'all' }); });
await measure('reuse page goto+wipe', async () => { await page.goto(url); await page.goto('about:blank'); await cdp.send('Network.clearBrowserCookies'); await cdp.send('Network.clearBrowserCache'); await cdp.send('Storage.clearDataForOrigin', { origin: new URL(url).origin, storageTypes: 'all' }); });
await page.goto(url); console.log('after goto cookies', (await page.cookies()).length, await page.evaluate(() => [localStorage.x, sessionStorage.y]));
await page.goto('about:blank'); await cdp.send('Network.clearBrowserCookies'); await cdp.send('Storage.clearDataForOrigin', { origin: new URL(url).origin, storageTypes: 'all' });
srv.removeAllListeners('request'); srv.on('request', (req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<!doctype html>x'); });
await page.goto(url); console.log('after wipe cookies', (await page.cookies()).length, await page.evaluate(() => [localStorage.x, sessionStorage.y]));
await b.close(); srv.close();
