/**
 * What isolating one PSU journey from the next costs Chromium, per journey: a fresh incognito
 * context and page (what obtpp did before), against one context reused and wiped through CDP (what
 * PsuBrowser does now: cookies, the origin's storage, cache), keeping its tab when the journey
 * wrote no session storage and had no frame, else giving the next journey a new tab. Each loads
 * one page that sets a cookie and local storage (and, for the last row, session storage).
 * Chromium's CPU is read from /proc (all its processes; a renderer that exited took its last
 * ticks with it, so the rows that close tabs are undercounted, if anything). Linux only.
 *   node bench/contexts.ts [N=15] [--json]
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CHROMIUM_ARGS, PsuBrowser } from '../src/psu/index.ts';
import { launchInFolder } from '../test/helpers/own-chromium.ts';
import { treeCpuMs } from './proc.ts';
import { stats } from './stats.ts';

const args = process.argv.slice(2);
const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 15);
const asJson = args.includes('--json');

const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'sid=x; Path=/' });
  const session = req.url?.includes('session') ? 'sessionStorage.y=2' : '';
  res.end(`<!doctype html><form><input id=u><button>go</button></form><script>localStorage.x=1;${session}</script>`);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const origin = new URL(url).origin;

// Its profile and its temporary files in a folder of its own, removed when it closes (as PsuBrowser's
// own launches and the tests' are): a Chromium process ended between making its shared-memory file
// in TMPDIR and unlinking it leaves that file behind.
const browser = await launchInFolder({
  executablePath: PsuBrowser.executablePath(),
  headless: true,
  pipe: true,
  // What PsuBrowser launches with.
  networkEnabled: false,
  args: [...CHROMIUM_ARGS, '--headless'],
});

/** CPU ms used so far by Chromium's processes (the browser and its children). */
function chromiumCpuMs(): number {
  return [...treeCpuMs(browser.process()!.pid!).values()].reduce((sum, ms) => sum + ms, 0);
}

async function measure(name: string, once: () => Promise<void>) {
  await once();
  const wall: number[] = [];
  const cpu0 = chromiumCpuMs();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await once();
    wall.push(performance.now() - t0);
  }
  // A renderer that exited took its last ticks with it: this undercounts the fresh contexts, if anything.
  const cpuMs = (chromiumCpuMs() - cpu0) / n;
  return { name, ...stats(wall), note: `Chromium CPU ${cpuMs.toFixed(0)} ms per journey` };
}

try {
  const rows = [];
  rows.push(await measure('isolation per journey: fresh context + page, one page load', async () => {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.goto(url);
    await context.close();
  }));
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const cdp = await page.createCDPSession();
  rows.push(await measure('isolation per journey: one context and tab reused, wiped via CDP, one page load', async () => {
    await page.goto(url);
    await cdp.send('Network.clearBrowserCookies');
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
  }));
  let tab = page;
  let tabCdp = cdp;
  rows.push(await measure('isolation per journey: one context reused, wiped via CDP, a new tab (session storage written), one page load', async () => {
    await tab.goto(`${url}?session`);
    await tabCdp.send('Network.clearBrowserCookies');
    await tabCdp.send('Network.clearBrowserCache');
    await tabCdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
    const next = await context.newPage();
    await tab.close();
    tab = next;
    tabCdp = await tab.createCDPSession();
  }));
  for (const r of rows) {
    if (asJson) console.log(JSON.stringify(r));
    else console.log(`${r.name}: median ${r.medianMs.toFixed(0)} ms (min ${r.minMs.toFixed(0)}, max ${r.maxMs.toFixed(0)}), ${r.note}`);
  }
} finally {
  await browser.close();
  server.close();
}
