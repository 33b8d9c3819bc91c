// The HTTP core against a real local server that misbehaves in every way a bank can.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient } from '../../src/client/http.ts';
import { listenLoopback } from '../helpers/loopback.ts';
import { HttpError } from '../../src/errors.ts';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;
const routes = new Map<string, Handler>();
/** Every request the server received, in order (method and path). */
const received: string[] = [];
let close: () => Promise<void>;
let server: http.Server;
let base: string;

before(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push(`${req.method} ${req.url}`);
      const handler = routes.get(new URL(req.url ?? '/', 'http://x').pathname);
      if (handler) handler(req, res, body);
      else {
        res.statusCode = 404;
        res.end();
      }
    });
  });
  ({ base, close } = await listenLoopback(server));
});

after(() => close());

/** Runs `fn` with a fresh client and always closes it. */
async function withClient<T>(options: ConstructorParameters<typeof HttpClient>[0], fn: (c: HttpClient) => Promise<T>): Promise<T> {
  const client = new HttpClient(options);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

/** Asserts that `promise` rejects with an HttpError and returns it. */
async function httpError(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof HttpError, `expected an HttpError, got ${String(error)}`);
    return error;
  }
  assert.fail('the request succeeded; it should have failed');
}

test('a server that never answers: HttpError timeout, naming the ms, and the failed exchange is captured', async () => {
  routes.set('/never', () => {
    /* accept the request and say nothing */
  });
  await withClient({ timeoutMs: 300 }, async (client) => {
    const error = await httpError(client.request('GET', `${base}/never`));
    assert.equal(error.code, 'timeout');
    assert.match(error.message, /300 ms/);
    assert.match(error.message, /127\.0\.0\.1/);
    assert.equal(error.exitCode, 3);
    assert.equal(client.exchanges.length, 1);
    assert.equal(client.exchanges[0].error?.code, 'timeout');
    assert.deepEqual(error.exchange, client.exchanges[0]);
  });
});

test('a per-request timeoutMs overrides the client default', async () => {
  await withClient({ timeoutMs: 60_000 }, async (client) => {
    const error = await httpError(client.request('GET', `${base}/never`, { timeoutMs: 250 }));
    assert.equal(error.code, 'timeout');
    assert.match(error.message, /250 ms/);
  });
});

test('a server that sends headers and then stalls mid-body: timeout', async () => {
  routes.set('/stall', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"Data":');
  });
  await withClient({ timeoutMs: 300 }, async (client) => {
    const error = await httpError(client.request('GET', `${base}/stall`));
    assert.equal(error.code, 'timeout');
    assert.match(error.message, /300 ms/);
  });
});

test('a body over the cap with Content-Length: body_too_large before reading it', async () => {
  routes.set('/big-declared', (_req, res) => {
    const body = JSON.stringify({ Data: 'x'.repeat(5000) });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await withClient({ maxBodyBytes: 1000 }, async (client) => {
    const error = await httpError(client.request('GET', `${base}/big-declared`));
    assert.equal(error.code, 'body_too_large');
    assert.match(error.message, /over 1000 bytes/);
    assert.match(error.message, /Content-Length 5011/);
    // status and headers were seen, and are kept as evidence
    assert.equal(client.exchanges[0].response?.status, 200);
    assert.equal(client.exchanges[0].error?.code, 'body_too_large');
  });
});

test('a body over the cap without Content-Length (chunked): body_too_large while reading', async () => {
  routes.set('/big-chunked', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"Data":"');
    const chunk = 'y'.repeat(512);
    for (let i = 0; i < 10; i++) res.write(chunk);
    res.end('"}');
  });
  await withClient({ maxBodyBytes: 1000 }, async (client) => {
    const error = await httpError(client.request('GET', `${base}/big-chunked`));
    assert.equal(error.code, 'body_too_large');
    assert.match(error.message, /over 1000 bytes/);
    assert.match(error.message, /read \d+ before stopping/);
  });
});

test('a body exactly at the cap is read', async () => {
  routes.set('/at-cap', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('z'.repeat(1000));
  });
  await withClient({ maxBodyBytes: 1000 }, async (client) => {
    const res = await client.request('GET', `${base}/at-cap`);
    assert.equal(res.text.length, 1000);
    assert.equal(res.exchange.response?.bytes, 1000);
  });
});

test('a connection reset mid-body: HttpError connection_reset', async () => {
  routes.set('/reset', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '10000' });
    res.write('{"Data":{"Account":[', () => {
      // an RST, not a FIN: the bank's gateway fell over
      (res.socket as Socket).resetAndDestroy();
    });
  });
  await withClient({}, async (client) => {
    const error = await httpError(client.request('GET', `${base}/reset`));
    assert.equal(error.code, 'connection_reset');
    assert.match(error.message, /closed before the response was complete/);
    assert.equal(client.exchanges[0].error?.code, 'connection_reset');
  });
});

test('nothing listening: connection_refused', async () => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  await withClient({}, async (client) => {
    const error = await httpError(client.request('GET', `http://127.0.0.1:${port}/accounts`));
    assert.equal(error.code, 'connection_refused');
    assert.match(error.message, new RegExp(`refused by 127\\.0\\.0\\.1:${port}`));
  });
});

test('a non-JSON body does not throw: json false, body undefined, text kept', async () => {
  routes.set('/html', (_req, res) => {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end('<html><body>Bad gateway</body></html>');
  });
  await withClient({}, async (client) => {
    const res = await client.request('GET', `${base}/html`);
    assert.equal(res.status, 502);
    assert.equal(res.json, false);
    assert.equal(res.body, undefined);
    assert.equal(res.text, '<html><body>Bad gateway</body></html>');
    assert.equal(res.exchange.response?.json, false);
    assert.equal(res.exchange.response?.body, '<html><body>Bad gateway</body></html>');
  });
});

test('invalid JSON under a JSON content type does not throw: json false, text kept', async () => {
  routes.set('/broken-json', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"Data": {"Account": [');
  });
  await withClient({}, async (client) => {
    const res = await client.request('GET', `${base}/broken-json`);
    assert.equal(res.status, 200);
    assert.equal(res.json, false);
    assert.equal(res.body, undefined);
    assert.equal(res.text, '{"Data": {"Account": [');
    assert.equal(res.exchange.response?.body, '{"Data": {"Account": [');
  });
});

test('an empty body: json false, body undefined, text empty', async () => {
  routes.set('/empty', (_req, res) => {
    res.writeHead(204);
    res.end();
  });
  routes.set('/empty-200', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '0' });
    res.end();
  });
  await withClient({}, async (client) => {
    for (const [path, status] of [['/empty', 204], ['/empty-200', 200]] as const) {
      const res = await client.request('DELETE', `${base}${path}`);
      assert.equal(res.status, status);
      assert.equal(res.json, false);
      assert.equal(res.body, undefined);
      assert.equal(res.text, '');
      assert.equal(res.exchange.response?.body, undefined);
      assert.equal(res.exchange.response?.bytes, 0);
    }
  });
});

test('a JSON body is parsed, and a JSON request is sent with its content type', async () => {
  routes.set('/echo', (req, res, body) => {
    res.writeHead(201, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ Data: { contentType: req.headers['content-type'], accept: req.headers.accept, got: JSON.parse(body) } }));
  });
  await withClient({}, async (client) => {
    const res = await client.request<{ Data: Record<string, unknown> }>('POST', `${base}/echo`, { json: { Data: { Permissions: ['ReadBalances'] } } });
    assert.equal(res.status, 201);
    assert.equal(res.json, true);
    assert.deepEqual(res.body?.Data, { contentType: 'application/json', accept: 'application/json', got: { Data: { Permissions: ['ReadBalances'] } } });
    assert.deepEqual(res.exchange.request.body, { Data: { Permissions: ['ReadBalances'] } });
  });
});

test('a 3xx is returned as it is, not followed', async () => {
  routes.set('/moved', (_req, res) => {
    res.writeHead(302, { location: '/elsewhere', 'content-type': 'application/json' });
    res.end('{"moved":true}');
  });
  routes.set('/elsewhere', (_req, res) => {
    res.writeHead(200);
    res.end('{}');
  });
  await withClient({}, async (client) => {
    const start = received.length;
    const res = await client.request('GET', `${base}/moved`);
    assert.equal(res.status, 302);
    assert.equal(res.headers.location, '/elsewhere');
    assert.deepEqual(res.body, { moved: true });
    assert.deepEqual(received.slice(start), ['GET /moved']);
  });
});

test('x-fapi-interaction-id is captured as sent and as received', async () => {
  routes.set('/fapi', (req, res) => {
    const id = req.headers['x-fapi-interaction-id'] ?? '0f5a1c2e-8d7b-4c3a-9e1f-2b3c4d5e6f70';
    res.writeHead(200, { 'content-type': 'application/json', 'x-fapi-interaction-id': id });
    res.end('{}');
  });
  await withClient({}, async (client) => {
    const sent = '93bac548-d2de-4546-b106-880a5018460d';
    const echoed = await client.request('GET', `${base}/fapi`, { headers: { 'X-Fapi-Interaction-Id': sent } });
    assert.deepEqual(echoed.exchange.interactionId, { sent, received: sent });
    assert.equal(echoed.exchange.request.headers['x-fapi-interaction-id'], sent);

    const fresh = await client.request('GET', `${base}/fapi`);
    assert.deepEqual(fresh.exchange.interactionId, { received: '0f5a1c2e-8d7b-4c3a-9e1f-2b3c4d5e6f70' });
  });
  routes.set('/no-fapi', (_req, res) => {
    res.writeHead(200);
    res.end('{}');
  });
  await withClient({}, async (client) => {
    const sent = '11111111-2222-4333-8444-555555555555';
    const res = await client.request('GET', `${base}/no-fapi`, { headers: { 'x-fapi-interaction-id': sent } });
    // the bank did not echo it: the exchange shows that, for the echo rule to judge
    assert.deepEqual(res.exchange.interactionId, { sent });
  });
});

test('every exchange reaches onExchange and recordInto, in order', async () => {
  const seen: number[] = [];
  const client = new HttpClient({ onExchange: (ex) => seen.push(ex.seq) });
  try {
    const sink: import('../../src/client/exchange.ts').Exchange[] = [];
    const stop = client.recordInto(sink);
    await client.request('GET', `${base}/empty`);
    await client.request('GET', `${base}/html`);
    stop();
    await client.request('GET', `${base}/empty`);
    assert.deepEqual(seen, [1, 2, 3]);
    assert.deepEqual(sink.map((e) => e.seq), [1, 2]);
  } finally {
    await client.close();
  }
});
