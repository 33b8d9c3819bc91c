// Secrets never travel: every exchange the HTTP core captures is scanned for every secret the
// test used, after a server that echoes everything it received back in body, headers and cookies.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { HttpClient } from '../../src/client/http.ts';
import { listenLoopback } from '../helpers/loopback.ts';
import type { Exchange } from '../../src/client/exchange.ts';

const fresh = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;
/** A JWT-shaped string (not signed by anything; it only has to look like one). */
const fakeJwt = () => ['eyJhbGciOiJQUzI1NiJ9', Buffer.from(JSON.stringify({ sub: fresh('psu') })).toString('base64url'), randomBytes(32).toString('base64url')].join('.');

let server: http.Server;
let base: string;
let close: () => Promise<void>;
/** What the fake token endpoint hands out next. */
let tokenResponse: Record<string, string> = {};

before(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/token') {
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify(tokenResponse));
        return;
      }
      // Echo everything back: a bank with a debugging gateway, the worst case for leaks.
      const auth = req.headers.authorization ?? '';
      const headers: Record<string, string | string[]> = {
        'x-echo-authorization': auth,
        'x-echo-body': body.replace(/[\r\n]+/g, ' '),
        'x-echo-query': req.url ?? '',
        'set-cookie': [`session=${auth.split(' ')[1] ?? 'none'}; HttpOnly`, `body=${encodeURIComponent(body.slice(0, 200))}`],
        'www-authenticate': `Bearer error="invalid_token", token="${auth.split(' ')[1] ?? ''}"`,
      };
      if (path === '/echo-text') {
        res.writeHead(400, { ...headers, 'content-type': 'text/plain' });
        res.end(`you sent: ${req.method} ${req.url}\n${JSON.stringify(req.headers)}\n${body}\n`);
        return;
      }
      res.writeHead(200, { ...headers, 'content-type': 'application/json' });
      res.end(JSON.stringify({ Data: { method: req.method, url: req.url, headers: req.headers, body, note: `we received ${body}` } }));
    });
  });
  ({ base, close } = await listenLoopback(server));
});

after(() => close());

/** Asserts no secret occurs anywhere in the captured exchanges, and that redaction did happen. */
function assertClean(exchanges: Exchange[], secrets: Record<string, string>): void {
  const text = JSON.stringify(exchanges);
  for (const [name, value] of Object.entries(secrets)) {
    assert.ok(!text.includes(value), `secret ${name} leaked into a captured exchange`);
    // also not in the forms a server might re-encode it in
    assert.ok(!text.includes(encodeURIComponent(value)), `secret ${name} leaked URL-encoded`);
    assert.ok(!text.includes(JSON.stringify(value).slice(1, -1)), `secret ${name} leaked JSON-escaped`);
  }
  assert.ok(text.includes('[REDACTED]'), 'nothing was marked [REDACTED]');
}

test('request(): bearer token, form secrets, JSON password and a private key never reach the exchange, even echoed back', async () => {
  const token = fresh('opaque-access-token');
  const clientSecret = fresh('client-secret');
  const assertion = fakeJwt();
  const password = fresh('psu-password');
  const pem = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const pemBody = pem.split('\n')[1]; // a line from the middle of the key
  // the client is told nothing up front: it must learn from what it sends
  const client = new HttpClient();
  try {
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: 'tpp-1', client_secret: clientSecret, client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion });
    const r1 = await client.request('POST', `${base}/echo`, { headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
    assert.equal(r1.status, 200);
    const r2 = await client.request('POST', `${base}/echo`, { headers: { authorization: `Bearer ${token}` }, json: { username: 'alice', password, note: `key follows\n${pem}` } });
    assert.equal(r2.status, 200);
    const r3 = await client.request('POST', `${base}/echo-text`, { headers: { authorization: `Bearer ${token}` }, json: { password, privateKey: pem } });
    assert.equal(r3.status, 400);
    // the caller still gets the real answer; only the capture is scrubbed
    assert.ok(r1.text.includes(clientSecret));
    assert.equal(client.exchanges.length, 3);
    assertClean(client.exchanges, { token, clientSecret, assertion, password, pemBody });
    assert.ok(!JSON.stringify(client.exchanges).includes('PRIVATE KEY'));
    // what is not secret stays readable as evidence
    assert.equal(client.exchanges[0].request.headers.authorization, 'Bearer [REDACTED]');
    assert.match(String(client.exchanges[0].request.body), /client_id=tpp-1/);
    assert.match(String(client.exchanges[0].request.body), /grant_type=client_credentials/);
    assert.equal((client.exchanges[1].request.body as Record<string, unknown>).username, 'alice');
  } finally {
    await client.close();
  }
});

test('request(): Basic client authentication and secrets in the query string are scrubbed', async () => {
  const clientSecret = fresh('basic-secret');
  const code = fresh('auth-code');
  const client = new HttpClient();
  try {
    const basic = Buffer.from(`tpp-1:${clientSecret}`).toString('base64');
    await client.request('GET', `${base}/echo?code=${code}&state=abc`, { headers: { authorization: `Basic ${basic}` } });
    assertClean(client.exchanges, { clientSecret, basic, code });
    assert.match(client.exchanges[0].url, /state=abc/);
  } finally {
    await client.close();
  }
});

test('profile secrets given up front are scrubbed wherever they appear, whatever the field is called', async () => {
  const password = fresh('pw');
  const apiKey = fresh('gateway-key');
  const client = new HttpClient({ secrets: [password, apiKey] });
  try {
    await client.request('POST', `${base}/echo`, { headers: { 'x-gateway-key': apiKey }, json: { Data: { Reference: `ref ${password}` } } });
    await client.request('POST', `${base}/echo-text`, { body: `free text with ${password} and ${apiKey}`, headers: { 'content-type': 'text/plain' } });
    assertClean(client.exchanges, { password, apiKey });
  } finally {
    await client.close();
  }
});

test('a private key cut by the evidence size limit does not leak its first half', async () => {
  const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const lines = pem.trim().split('\n');
  const client = new HttpClient();
  try {
    // the key starts just before the 4 KiB evidence limit of a text body and ends after it
    await client.request('POST', `${base}/echo-text`, { body: 'x'.repeat(3900) + '\n' + pem, headers: { 'content-type': 'text/plain' } });
    assertClean(client.exchanges, { line1: lines[1], line2: lines[2] });
  } finally {
    await client.close();
  }
});

test('fetch(): tokens from a token response are learned, and a later echo of them in free text is scrubbed', async () => {
  const clientSecret = fresh('cs');
  const accessToken = fresh('at'); // opaque, so only learning can catch it
  const refreshToken = fresh('rt');
  const idToken = fakeJwt();
  tokenResponse = { access_token: accessToken, refresh_token: refreshToken, id_token: idToken, token_type: 'Bearer', expires_in: '300' };
  const client = new HttpClient();
  try {
    // as openid-client calls it: URLSearchParams body, Basic or form client auth
    const tokenRes = await client.fetch(`${base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: fresh('code'), client_id: 'tpp-1', client_secret: clientSecret }),
    });
    // openid-client reads the real body
    assert.equal(((await tokenRes.json()) as { access_token: string }).access_token, accessToken);

    // later: the resource server (through request) and the AS (through fetch) echo the tokens
    await client.request('GET', `${base}/echo-text?hint=${accessToken}`, { headers: { authorization: `Bearer ${accessToken}` } });
    await client.request('POST', `${base}/echo`, { json: { Data: { Note: `my refresh token is ${refreshToken}` } } });
    await client.fetch(`${base}/echo-text`, { method: 'POST', body: `token=${refreshToken}&note=${accessToken}` });
    await client.fetch(`${base}/echo`, { method: 'POST', headers: { authorization: `DPoP ${accessToken}` }, body: JSON.stringify({ id_token_hint: idToken }) });

    assert.equal(client.exchanges.length, 5);
    assertClean(client.exchanges, { clientSecret, accessToken, refreshToken, idToken });
    const tokenEx = client.exchanges[0].response?.body as Record<string, unknown>;
    assert.equal(tokenEx.access_token, '[REDACTED]');
    assert.equal(tokenEx.token_type, 'Bearer');
  } finally {
    await client.close();
  }
});

test('fetch(): a form body sent without a content-type header is still redacted as a form', async () => {
  const clientSecret = fresh('cs');
  const client = new HttpClient();
  try {
    await client.fetch(`${base}/echo`, { method: 'POST', body: `grant_type=client_credentials&client_secret=${clientSecret}` });
    await client.fetch(`${base}/echo`, { method: 'POST', body: new URLSearchParams({ client_secret: clientSecret }) });
    assertClean(client.exchanges, { clientSecret });
  } finally {
    await client.close();
  }
});

test('an OBIE error body keeps its Code: field names are matched as the protocols spell them', async () => {
  const client = new HttpClient();
  try {
    const res = await client.request('POST', `${base}/echo`, { json: { Code: '400 Bad Request', Errors: [{ ErrorCode: 'UK.OBIE.Field.Missing' }] } });
    assert.equal(res.status, 200);
    const captured = client.exchanges[0].request.body as Record<string, unknown>;
    assert.equal(captured.Code, '400 Bad Request');
    assert.ok(JSON.stringify(client.exchanges[0].response?.body).includes('400 Bad Request'));
  } finally {
    await client.close();
  }
});

test('the redactor covers every occurrence of hundreds of secrets, overlapping and nested ones included, in short and long texts', async () => {
  const { Redactor, REDACTED } = await import('../../src/client/redact.ts');
  const tokens = Array.from({ length: 400 }, () => randomBytes(24).toString('base64url'));
  const r = new Redactor(tokens);
  // Two secrets that overlap: the shorter one starts first, the longer one runs past it.
  r.add('xxABCDsecret');
  r.add('ABCDsecretEFGH-longer');
  const sample = tokens[137]!;
  const texts = [
    `Bearer ${sample}`,
    `a=${encodeURIComponent(tokens[3]!)}&b=${tokens[399]}`,
    'pre-xxABCDsecretEFGH-longer-post',
    `${'filler '.repeat(60_000)}${sample}${' tail'.repeat(10)}`,
  ];
  for (const text of texts) {
    const out = r.text(text);
    for (const secret of [...tokens, 'xxABCDsecret', 'ABCDsecretEFGH-longer']) {
      for (let i = 0; i + 8 <= secret.length; i += 4) assert.ok(!out.includes(secret.slice(i, i + 8)), `no 8 characters of a secret survive: ${out.slice(0, 80)}`);
    }
    assert.ok(out.includes(REDACTED));
  }
  assert.equal(r.text('pre-xxABCDsecretEFGH-longer-post'), `pre-${REDACTED}-post`);
  assert.equal(r.text('nothing secret here, 12.50 GBP'), 'nothing secret here, 12.50 GBP');
});
