/**
 * Isolation between PSU journeys in one browser. PsuBrowser reuses a lane's context from one
 * journey to the next (wiped through the DevTools protocol); this proves that no journey sees the
 * previous one's session: the bank's login page is shown again, no cookie of the earlier PSU is
 * sent, and its local and session storage are gone, on every origin the journey went through.
 * The bank remembers a PSU the way real ones do (a session cookie, or storage its login page
 * reads), so a context shared without the wipe fails here. Real Chromium, real sockets.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PsuBrowser, type JourneyOptions } from '../../src/psu/index.ts';
import type { DriverStep } from '../../src/profile/types.ts';
import { closedPort } from './tiny-bank.ts';

interface Seen { host: string; path: string; cookie: string }

/**
 * A bank on two origins of one server: the authorization endpoint on 127.0.0.1, the login pages
 * on localhost (as banks keep login on a domain of its own). Both set a session cookie; the
 * consent page also writes localStorage and sessionStorage. A request with the cookie, or a login
 * page that finds the storage, skips the login ("remembered").
 */
async function rememberingBank(): Promise<{ port: number; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', `http://${req.headers.host}`);
    const cookie = req.headers.cookie ?? '';
    seen.push({ host: u.hostname, path: u.pathname, cookie });
    let body = '';
    for await (const chunk of req) body += chunk;
    const form = new URLSearchParams(body);
    const html = (s: string, headers: Record<string, string> = {}) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(`<!doctype html><html><body>${s}</body></html>`);
    };
    const back = (params: Record<string, string>, headers: Record<string, string> = {}) => {
      const to = new URL(u.searchParams.get('redirect_uri')!);
      to.searchParams.set('state', u.searchParams.get('state') ?? '');
      for (const [k, v] of Object.entries(params)) to.searchParams.set(k, v);
      res.writeHead(303, { location: to.href, ...headers });
      res.end();
    };
    const who = /(?:^|; )sid=([^;]+)/.exec(cookie)?.[1];
    if (u.pathname === '/remembered') return back({ code: `remembered-${u.searchParams.get('who')}` });
    // A live session skips the login, as a real bank's would.
    if (who && (u.pathname === '/authorize' || u.pathname === '/login')) return back({ code: `remembered-${who}` });
    if (u.hostname === '127.0.0.1' && u.pathname === '/authorize') {
      res.writeHead(303, { location: `http://localhost:${port}/login${u.search}`, 'set-cookie': 'visit=1; Path=/' });
      return res.end();
    }
    if (u.pathname === '/login') {
      return html(`<script>const w = localStorage.getItem('psu') || sessionStorage.getItem('psu');
        if (w) location.replace('/remembered' + location.search + '&who=' + w);</script>
        <form method="post" action="/signin${u.search}"><input id="user" name="user"><input id="pass" name="pass" type="password"><button id="go">Sign in</button></form>`);
    }
    // A frame of another site inside the consent page keeps its own (partitioned) session storage,
    // which the page's tab holds: it tells the page what it found there, and the page puts that
    // in the form it shows only then.
    if (u.pathname === '/frame') {
      return html(`<script>const was = sessionStorage.getItem('frame-psu') || '';
        sessionStorage.setItem('frame-psu', ${JSON.stringify(u.searchParams.get('user') ?? '')});
        parent.postMessage(was, '*');</script>`);
    }
    if (u.pathname === '/signin' && (form.get('user') ?? '').startsWith('framed-')) {
      const user = form.get('user')!;
      return html(`<iframe src="http://127.0.0.1:${port}/frame?user=${encodeURIComponent(user)}"></iframe><div id="slot"></div>
        <script>addEventListener('message', (e) => { document.getElementById('slot').innerHTML =
          '<form method="post" action="/decide${u.search}&user=${encodeURIComponent(user)}&frame-saw=' + encodeURIComponent(e.data) + '"><button id="yes" name="d" value="yes">Allow</button><button id="no" name="d" value="no">Deny</button></form>'; });</script>`);
    }
    if (u.pathname === '/signin') {
      const user = form.get('user') ?? '';
      return html(`<script>localStorage.setItem('psu', ${JSON.stringify(user)}); sessionStorage.setItem('psu', ${JSON.stringify(user)});</script>
        <form method="post" action="/decide${u.search}&user=${encodeURIComponent(user)}"><h1 id="consent">Share?</h1><button id="yes" name="d" value="yes">Allow</button><button id="no" name="d" value="no">Deny</button></form>`,
        { 'set-cookie': `sid=${encodeURIComponent(user)}; Path=/; HttpOnly` });
    }
    if (u.pathname === '/decide') return back({ code: `code-${u.searchParams.get('user')}${u.searchParams.get('frame-saw') ? `-frame-saw-${u.searchParams.get('frame-saw')}` : ''}` });
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    seen,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

const STEPS: DriverStep[] = [
  { action: 'fill', selector: '#user', value: '{username}' },
  { action: 'fill', selector: '#pass', value: '{password}' },
  { action: 'click', selector: '#go', waitForNavigation: true },
  { action: 'decide', approve: '#yes', reject: '#no' },
];

let bank: Awaited<ReturnType<typeof rememberingBank>>;
let browser: PsuBrowser;
let evidenceDir: string;
let redirectUri: string;

before(async () => {
  bank = await rememberingBank();
  browser = new PsuBrowser({ env: process.env });
  evidenceDir = mkdtempSync(join(tmpdir(), 'obtpp-isolation-'));
  redirectUri = `http://127.0.0.1:${await closedPort()}/callback`;
});

after(async () => {
  await browser.close();
  await bank.close();
  rmSync(evidenceDir, { recursive: true, force: true });
});

function journey(username: string) {
  const u = new URL(`http://127.0.0.1:${bank.port}/authorize`);
  u.searchParams.set('redirect_uri', redirectUri);
  u.searchParams.set('state', `st-${username}`);
  const options: JourneyOptions = {
    redirectUri,
    driver: { kind: 'steps', steps: STEPS },
    username,
    password: 'pw',
    stepTimeoutMs: 5000,
    totalTimeoutMs: 20_000,
    evidenceDir,
  };
  return browser.journey(u.href, options);
}

test('each PSU journey starts with no session: the login page again, no earlier cookie, no earlier storage', async () => {
  const first = await journey('alice');
  assert.equal(new URL(first.callbackUrl).searchParams.get('code'), 'code-alice');
  // The bank did remember alice: her cookie came back within her own journey.
  assert.ok(bank.seen.some((s) => s.path === '/decide' && s.cookie.includes('sid=alice')), 'the bank set its session cookie');

  const reusedBefore = browser.lanesReused;
  for (const psu of ['bob', 'carol']) {
    const from = bank.seen.length;
    const next = await journey(psu);
    const mine = bank.seen.slice(from);
    assert.equal(new URL(next.callbackUrl).searchParams.get('code'), `code-${psu}`, `${psu} logged in himself, not as an earlier PSU`);
    assert.ok(mine.some((s) => s.host === 'localhost' && s.path === '/login'), 'the bank\'s login page was shown again');
    assert.ok(next.steps.some((s) => s.includes('fill #user')), next.steps.join('\n'));
    assert.equal(mine.find((s) => s.path === '/remembered'), undefined, 'the login page found no earlier PSU in local or session storage');
    const first = mine[0]!;
    assert.equal(first.path, '/authorize');
    assert.equal(first.cookie, '', 'the journey\'s first request carries no cookie of an earlier journey');
    const login = mine.find((s) => s.path === '/login')!;
    assert.equal(login.cookie, '', 'nor does the login page\'s (another origin)');
    // Within the journey only its own PSU's session cookie may appear.
    for (const s of mine) assert.ok(!new RegExp(`sid=(?!${psu}\\b)`).test(s.cookie), `${s.host}${s.path} carried ${s.cookie}`);
  }
  // What is proved is the wipe: bob and carol each got the context the journey before them left
  // (a wipe that failed would close it, and a new context would pass this test by itself).
  assert.equal(browser.lanesReused - reusedBefore, 2, 'both later journeys reused the wiped context');
});

test('journeys at once get a context each, and none sees another\'s session afterwards', async () => {
  const names = ['dave', 'erin', 'frank'];
  const results = await Promise.all(names.map((n) => journey(n)));
  assert.deepEqual(results.map((r) => new URL(r.callbackUrl).searchParams.get('code')), names.map((n) => `code-${n}`));
  const from = bank.seen.length;
  const again = await Promise.all(['gina', 'hal'].map((n) => journey(n)));
  assert.deepEqual(again.map((r) => new URL(r.callbackUrl).searchParams.get('code')), ['code-gina', 'code-hal']);
  const logins = bank.seen.slice(from).filter((s) => s.path === '/login');
  assert.equal(logins.length, 2, 'both saw the login page');
  for (const s of bank.seen.slice(from).filter((x) => x.path === '/authorize' || x.path === '/login')) assert.equal(s.cookie, '', `${s.host}${s.path}`);
});

test('a frame inside the bank\'s pages keeps no session storage from one journey to the next', async () => {
  // The frame's storage is partitioned under the page's site and lives in the tab: only a new tab
  // (a new session-storage namespace) drops it; the context's wipe alone does not.
  const first = await journey('framed-ivy');
  assert.equal(new URL(first.callbackUrl).searchParams.get('code'), 'code-framed-ivy');
  const reusedBefore = browser.lanesReused;
  const next = await journey('framed-jack');
  assert.equal(new URL(next.callbackUrl).searchParams.get('code'), 'code-framed-jack', 'the frame found nothing of the journey before');
  assert.equal(browser.lanesReused - reusedBefore, 1, 'the second journey reused the wiped context');
});
