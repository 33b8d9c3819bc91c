/**
 * A few static pages shaped like an unknown bank's (ids and classes of its own, not the sandbox's
 * data-testids), to exercise the browser module's mechanics: the declarative driver, error
 * messages, time-outs and evidence. Not a bank: no OAuth, it just redirects to the redirect URI.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TinyBank {
  url: string;
  /** Requests seen, path only (to prove the password is posted to the bank and nowhere else). */
  seen: string[];
  close(): Promise<void>;
}

const ACCOUNTS = [
  { id: 'acc-001', number: '40400411290112', name: 'Everyday Current' },
  { id: 'acc-002', number: '40400422331144', name: 'Rainy Day Saver' },
  { id: 'acc-003', number: '40400433441199', name: 'Joint Account' },
];

export async function startTinyBank(options: { password: string }): Promise<TinyBank> {
  const seen: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    seen.push(`${req.method} ${u.pathname}`);
    const body = await new Promise<string>((r) => {
      let b = '';
      req.on('data', (c) => (b += c));
      req.on('end', () => r(b));
    });
    const form = new URLSearchParams(body);
    const html = (s: string, status = 200) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><body>${s}</body></html>`);
    };
    const q = u.search;
    if (u.pathname === '/authorize') {
      return html(`<form method="post" action="/signin${q}"><input id="user" name="user"><input id="pass" name="pass" type="password"><button id="go">Sign in</button></form>`);
    }
    if (u.pathname === '/signin') {
      if (form.get('pass') !== options.password) {
        return html(`<div class="alert">Those details do not match our records.</div><form method="post" action="/signin${q}"><input id="user" name="user"><input id="pass" name="pass" type="password"><button id="go">Sign in</button></form>`);
      }
      const boxes = ACCOUNTS.map(
        (a) => `<label><input type="checkbox" class="acct" name="acct" value="${a.id}" checked> ${a.name} (${a.number})</label>`,
      ).join('');
      const radios = u.searchParams.get('debtor') ? `<fieldset>${ACCOUNTS.map((a) => `<label><input type="radio" class="from" name="from" value="${a.id}"> ${a.name}</label>`).join('')}</fieldset>` : '';
      return html(`<div id="cookie-banner"><button id="cookies-ok" type="button" onclick="this.parentNode.remove()">OK</button></div>
        <form method="post" action="/decide${q}"><h1 id="consent">Share your accounts?</h1>${boxes}${radios}
        <select id="duration" name="duration"><option value="30">30 days</option><option value="90">90 days</option></select>
        <button id="yes" name="d" value="yes">Allow</button><button id="no" name="d" value="no">Deny</button></form>`);
    }
    if (u.pathname === '/decide') {
      // ?refuse=…: the bank refuses the decision on a page of its own (say, the consent expired meanwhile).
      if (u.searchParams.get('refuse')) return html(`<div class="alert">${u.searchParams.get('refuse')}</div>`);
      const redirect = new URL(u.searchParams.get('redirect_uri')!);
      redirect.searchParams.set('state', u.searchParams.get('state') ?? '');
      if (form.get('d') === 'no') redirect.searchParams.set('error', 'access_denied');
      else redirect.searchParams.set('code', `code-for-${form.getAll('acct').join('+')}-${form.get('from') ?? ''}-${form.get('duration')}`);
      res.writeHead(303, { location: redirect.href });
      return res.end();
    }
    if (u.pathname === '/slow') return html('<p>nothing to see</p>');
    // A page that sends the browser on by script, and one that adds its link by script later on.
    if (u.pathname === '/hop') return html(`<p>one moment</p><script>setTimeout(() => location.href = '/hop2' + location.search, 150)</script>`);
    if (u.pathname === '/hop2') {
      const back = new URL(u.searchParams.get('redirect_uri')!);
      back.searchParams.set('state', u.searchParams.get('state') ?? '');
      back.searchParams.set('code', 'hopped');
      return html(`<p>nearly there</p><script>setTimeout(() => { const a = document.createElement('a'); a.id = 'arrived'; a.href = ${JSON.stringify(back.href)}; a.textContent = 'Continue'; document.body.append(a); }, 150)</script>`);
    }
    // A page whose script never yields: nothing can be asked of it any more. The loop starts 400 ms
    // after the script runs, so that the page's load reaches the TPP first even on a loaded machine
    // (at 50 ms, one whole run's goto step timed out instead: its load event never left the page).
    if (u.pathname === '/busy') return html('<h1 id="busy">Working…</h1><script>setTimeout(() => { for (;;); }, 400)</script>');
    // A page as a loaded machine can make one: its main thread held for 4 s from 800 ms after its
    // load (which ends the TPP's goto first, however slow the machine), then free again.
    if (u.pathname === '/stall') return html('<h1 id="stall">Working…</h1><script>addEventListener("load", () => setTimeout(() => { const end = Date.now() + 4000; while (Date.now() < end); }, 800))</script>');
    html('not found', 404);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A loopback port nobody listens on (bound then released). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
