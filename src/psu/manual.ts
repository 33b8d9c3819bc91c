import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthorisationError, ObtppError } from '../errors.ts';
import type { JourneyOptions, JourneyResult } from './types.ts';

const PAGE = (body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>obtpp</title></head><body style="font-family:sans-serif;max-width:40em;margin:3em auto">${body}</body></html>`;

/** Called once the loopback server listens: its address (tests use it when the port is 0). */
export type ListeningHook = (address: { port: number; url: string }) => void;

/**
 * Manual mode, for banks with steps no script can do: print the authorization URL, let the PSU
 * finish in their own browser, and wait (bounded by totalTimeoutMs) for the redirect on a loopback
 * server bound to 127.0.0.1 only. The server listens on the redirect URI's port (or the driver's
 * callbackPort) and answers the redirect URI's path; when the redirect URI is not a loopback one,
 * the PSU pastes the final URL into the form at the server's root instead.
 */
export async function manualJourney(url: string, options: JourneyOptions, onListening?: ListeningHook): Promise<JourneyResult> {
  const log = options.log;
  if (!log) throw new ObtppError('manual_no_output', 'manual PSU mode needs somewhere to print the authorization URL');
  const redirect = new URL(options.redirectUri);
  const loopback = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(redirect.hostname);
  const driver = options.driver.kind === 'manual' ? options.driver : { kind: 'manual' as const };
  const port = driver.callbackPort ?? (loopback ? Number(redirect.port || (redirect.protocol === 'https:' ? 443 : 80)) : 0);

  let resolveUrl!: (u: string) => void;
  const arrived = new Promise<string>((r) => (resolveUrl = r));
  const server = createServer(callbackHandler(options.redirectUri, loopback, resolveUrl));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e) => reject(new ObtppError('manual_callback_port', `cannot listen on 127.0.0.1:${port} for the redirect back (${(e as Error).message})`, { cause: e })));
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${actual}/`;
  onListening?.({ port: actual, url: base });
  log('Open this URL in a browser, log in at the bank and approve (or reject) the consent:');
  log(`  ${url}`);
  if (loopback && (driver.callbackPort === undefined || driver.callbackPort === Number(redirect.port))) {
    log(`Waiting for the bank to redirect back to ${options.redirectUri} …`);
  } else {
    log(`Then paste the address the bank sends you to (under ${options.redirectUri}) at ${base}`);
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    const callbackUrl = await Promise.race([
      arrived,
      new Promise<never>((_r, reject) => {
        timer = setTimeout(() => reject(new AuthorisationError('journey_timeout', `no redirect back to ${options.redirectUri} within ${options.totalTimeoutMs} ms (manual mode)`)), options.totalTimeoutMs);
      }),
    ]);
    return { callbackUrl, offeredAccounts: [], selectedAccounts: [], debtorOffered: false, loginOrigin: '', steps: ['1. manual: the PSU authorised in their own browser'] };
  } finally {
    clearTimeout(timer);
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}

/**
 * The loopback server's pages: on a loopback redirect URI's path, the bank's answer (one in the
 * fragment sent back by a page first); at the root, the form the PSU pastes the final URL into.
 * An answer received goes to `received`.
 */
function callbackHandler(redirectUri: string, loopback: boolean, received: (url: string) => void): (req: IncomingMessage, res: ServerResponse) => void {
  const redirect = new URL(redirectUri);
  return (req, res) => {
    const here = new URL(req.url ?? '/', `http://127.0.0.1`);
    const answer = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(PAGE(body));
    };
    if (loopback && here.pathname === redirect.pathname && here.search === '' && here.searchParams.get('obtpp-fragment') === null) {
      // An answer in the fragment (the hybrid flow) never reaches a server: the page sends it back here.
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(PAGE(`<p>obtpp is reading the bank's answer…</p><script>location.replace(location.pathname + '?obtpp-fragment=' + encodeURIComponent(location.hash.slice(1)))</script>`));
      return;
    }
    if (loopback && here.pathname === redirect.pathname) {
      const full = new URL(redirectUri);
      const fragment = here.searchParams.get('obtpp-fragment');
      if (fragment !== null) full.hash = fragment;
      else full.search = here.search;
      answer(200, '<p>obtpp received the bank\'s answer. You can close this page.</p>');
      received(full.href);
      return;
    }
    if (here.pathname === '/') return pastePage(here, redirectUri, answer, received);
    answer(404, '<p>Not here.</p>');
  };
}

/** The root page: the form, or the URL the PSU pasted into it (taken when it is under the redirect URI). */
function pastePage(here: URL, redirectUri: string, answer: (status: number, body: string) => void, received: (url: string) => void): void {
  const redirect = new URL(redirectUri);
  const pasted = here.searchParams.get('callback');
  if (pasted) {
    try {
      const u = new URL(pasted);
      if (u.origin === redirect.origin && u.pathname === redirect.pathname) {
        answer(200, '<p>obtpp received the bank\'s answer. You can close this page.</p>');
        received(u.href);
        return;
      }
    } catch {
      /* fall through to the form */
    }
    answer(400, `<p>That is not a URL under ${escape(redirectUri)}.</p>`);
    return;
  }
  answer(200, `<p>When the bank sends you to <code>${escape(redirectUri)}</code>, paste that whole address here:</p><form><input name="callback" size="80" autofocus> <button>Send</button></form>`);
}

function escape(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
