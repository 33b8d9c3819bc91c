/**
 * The chaos faults of the resource server (see faults.ts): each takes over the responses of one
 * operation and writes them the way a broken bank or gateway would. They bend the wire, not the
 * rules, so they live here and not in the route handlers; `send` in obie/plumbing.ts is the exit
 * they replace.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SwitchedFaults } from './fault-declaration.ts';
import type { ChaosFaultName } from './faults.ts';
import { JSON_BOMB_DEPTH, OTHER_HOST, SANDBOX_MAX_BODY_BYTES, SANDBOX_TIMEOUTS, SLOW_BY_MS } from './faults.ts';
import { html, page } from './http.ts';

/** One response, before it is written (the resource server's Reply). */
interface Reply {
  status: number;
  body?: unknown;
}

/** What a chaos writer gets: the request, the response, the headers every reply carries, and the reply meant. */
export interface ChaosContext {
  req: IncomingMessage;
  res: ServerResponse;
  /** x-fapi-interaction-id and cache-control: kept even by a broken bank, so evidence can be matched. */
  headers: Record<string, string>;
  reply: Reply;
  /** Writes `reply` the normal way. */
  send: () => void;
}

interface Act {
  /** The resource-server operation (wire.md's name) whose responses this fault takes over. */
  operation: string;
  /** When set, the request is not processed at all: the bank fails before doing anything. */
  instead?: Reply;
  write: (c: ChaosContext) => void;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const json = (reply: Reply) => JSON.stringify(reply.body ?? {});

/** Writes headers and a complete body of the given type, with its length. */
function writeWhole(c: ChaosContext, status: number, contentType: string, payload: string, extra: Record<string, string> = {}): void {
  c.res.writeHead(status, { ...c.headers, ...extra, 'content-type': contentType, 'content-length': String(Buffer.byteLength(payload)) });
  c.res.end(payload);
}

/** A bare status with no body (and no Content-Type: there is nothing to type). */
function writeEmpty(c: ChaosContext, extra: Record<string, string> = {}): void {
  c.res.writeHead(c.reply.status, { ...c.headers, ...extra });
  c.res.end();
}

const ACTS: Record<Exclude<ChaosFaultName, 'tls-host-mismatch' | 'login-page-hangs' | 'no-approve-button'>, Act> = {
  'slow-response': {
    operation: 'getBalances',
    write: (c) => {
      const timer = setTimeout(() => {
        if (!c.res.destroyed) c.send();
      }, SANDBOX_TIMEOUTS.requestMs + SLOW_BY_MS);
      // A TPP that gave up must not keep the sandbox waiting (nor its process alive at stop).
      c.res.once('close', () => clearTimeout(timer));
    },
  },
  'connection-reset': {
    operation: 'getTransactions',
    write: (c) => {
      const payload = Buffer.from(json(c.reply));
      c.res.writeHead(c.reply.status, { ...c.headers, 'content-type': JSON_TYPE, 'content-length': String(payload.length) });
      c.res.write(payload.subarray(0, Math.floor(payload.length / 2)), () => {
        // Let the half body leave before the RST, so the TPP sees a reply cut mid-body.
        setTimeout(() => c.res.socket?.resetAndDestroy(), 50);
      });
    },
  },
  'html-body': {
    operation: 'getAccount',
    write: (c) => writeWhole(c, c.reply.status, 'text/html; charset=utf-8',
      page('Service notice', `<p>Our online services are being updated. Please try again later.</p><p><small>ref ${html(c.headers['x-fapi-interaction-id'])}</small></p>`)),
  },
  'json-bomb': {
    operation: 'listAccounts',
    // Only the account lists: a refusal keeps its error body.
    write: (c) => (c.reply.status === 200 ? writeWhole(c, 200, JSON_TYPE, '['.repeat(JSON_BOMB_DEPTH) + ']'.repeat(JSON_BOMB_DEPTH)) : c.send()),
  },
  'invalid-json': {
    operation: 'confirmFunds',
    write: (c) => {
      const payload = json(c.reply);
      writeWhole(c, c.reply.status, JSON_TYPE, payload.slice(0, Math.floor(payload.length / 2)));
    },
  },
  'wrong-content-type': {
    operation: 'getPaymentStatus',
    write: (c) => writeWhole(c, c.reply.status, 'text/plain; charset=utf-8', json(c.reply)),
  },
  'oversized-body': {
    operation: 'getTransaction',
    write: (c) => {
      // Valid JSON, twice the limit, streamed without Content-Length: the TPP must count as it reads.
      const size = 2 * SANDBOX_MAX_BODY_BYTES;
      const whole = json(c.reply);
      const head = `${whole.slice(0, -1)}${whole === '{}' ? '' : ','}"Padding":"`;
      const tail = '"}';
      const chunk = 'x'.repeat(64 * 1024);
      c.res.writeHead(c.reply.status, { ...c.headers, 'content-type': JSON_TYPE });
      let left = size - head.length - tail.length;
      c.res.write(head);
      const pump = () => {
        while (left > 0 && !c.res.destroyed) {
          const piece = chunk.slice(0, Math.min(chunk.length, left));
          left -= piece.length;
          if (!c.res.write(piece)) return void c.res.once('drain', pump);
        }
        if (!c.res.destroyed) c.res.end(tail);
      };
      pump();
    },
  },
  '500-no-body': {
    operation: 'getFundsConsent',
    instead: { status: 500 },
    write: (c) => writeEmpty(c),
  },
  '503-no-body': {
    operation: 'createPayment',
    instead: { status: 503 },
    write: (c) => writeEmpty(c),
  },
  '429-retry-after': {
    operation: 'getPayment',
    instead: { status: 429 },
    write: (c) => writeEmpty(c, { 'retry-after': '30' }),
  },
  'redirect-other-host': {
    operation: 'createFundsConsent',
    instead: { status: 307 },
    write: (c) => writeEmpty(c, { location: `${OTHER_HOST}${c.req.url ?? '/'}` }),
  },
};

/** The chaos fault switched on for an operation of the resource server, if any. */
export function chaosFor(faults: SwitchedFaults, operation: string): Act | undefined {
  for (const [name, act] of Object.entries(ACTS)) {
    if (act.operation === operation && faults.has(name)) return act;
  }
  return undefined;
}
