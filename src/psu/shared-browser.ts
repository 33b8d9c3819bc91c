/**
 * The DevTools connection to a browser someone else runs (OBTPP_BROWSER_WS_ENDPOINT). Every
 * context obtpp makes there is created with `disposeOnDetach`: Chromium disposes of it when this
 * connection goes, so a process that ends without closing its browser object (killed, crashed,
 * interrupted) leaves nothing open in the shared browser. puppeteer does not offer the flag, so
 * the transport adds it to the one command that creates contexts; every other message passes as
 * it is.
 *
 * The socket is the `ws` package's with permessage-deflate off, as puppeteer's own transport has
 * it: Node's built-in WebSocket always asks for compression, which Chromium grants, and then both
 * ends deflate every DevTools message (about half a second of CPU in a conformance run's process).
 */
import type { Browser, ConnectionTransport, Target } from 'puppeteer';
import WebSocket from 'ws';

const CREATE_CONTEXT = '"Target.createBrowserContext"';

export class DisposingTransport implements ConnectionTransport {
  onmessage?: (message: string) => void;
  onclose?: () => void;

  private readonly socket: WebSocket;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.addEventListener('message', (event) => this.onmessage?.(String(event.data)));
    socket.addEventListener('close', () => this.onclose?.());
  }

  /** Opens the WebSocket to `endpoint`; rejects when it cannot be opened within `timeoutMs`. */
  static open(endpoint: string, timeoutMs = 10_000): Promise<DisposingTransport> {
    return new Promise((resolve, reject) => {
      let socket: WebSocket;
      try {
        socket = new WebSocket(endpoint, [], { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
      } catch (error) {
        return reject(error);
      }
      const timer = setTimeout(() => (socket.close(), reject(new Error(`no answer within ${timeoutMs} ms`))), timeoutMs);
      socket.addEventListener('open', () => (clearTimeout(timer), resolve(new DisposingTransport(socket))), { once: true });
      socket.addEventListener('error', () => (clearTimeout(timer), reject(new Error('the connection failed'))), { once: true });
    });
  }

  send(message: string): void {
    this.socket.send(message.includes(CREATE_CONTEXT) ? withDispose(message) : message);
  }

  close(): void {
    this.socket.close();
  }
}

function withDispose(message: string): string {
  const command = JSON.parse(message) as { method?: string; params?: Record<string, unknown> };
  if (command.method !== 'Target.createBrowserContext') return message;
  return JSON.stringify({ ...command, params: { ...command.params, disposeOnDetach: true } });
}

/**
 * The targets one DevTools client of a shared browser attaches to: only those of the contexts it
 * made itself. puppeteer attaches each client to every tab the browser has, with the tab paused
 * until that client lets it run, and follows every such tab's own targets; in a browser others
 * share, those are their pages. A context that existed when the client connected is someone
 * else's too, though puppeteer lists it among the client's own (only the default context's id is
 * unknown to it). `targetFilter` goes to `puppeteer.connect`; `track(browser)` makes the contexts
 * `browser.createBrowserContext()` creates from then on the client's own (their targets attach
 * after the call returns: a page is made in a context only once it exists).
 */
export function ownContextsOnly(): { targetFilter: (target: Target) => boolean; track: (browser: Browser) => Browser } {
  const own = new Set<string>();
  return {
    targetFilter: (target) => target.type() === 'browser' || own.has(target.browserContext().id ?? ''),
    track: (browser) => {
      const create = browser.createBrowserContext.bind(browser);
      browser.createBrowserContext = async (...args: Parameters<Browser['createBrowserContext']>) => {
        const context = await create(...args);
        if (context.id) own.add(context.id);
        return context;
      };
      return browser;
    },
  };
}
