// mTLS through the real HTTP core: openssl-made certificates, a local https server that demands a
// client certificate, and the sentences a TPP engineer sees when the TLS set-up is wrong.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { makeCerts, type TestCerts } from '../helpers/certs.ts';
import { HttpClient } from '../../src/client/http.ts';
import { HttpError } from '../../src/errors.ts';

let certs: TestCerts;
const servers: https.Server[] = [];
/** The subject of the client certificate each request arrived with. */
const seenPeers: Array<Record<string, string> | undefined> = [];

async function listen(options: https.ServerOptions): Promise<string> {
  const server = https.createServer(options, (req, res) => {
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    seenPeers.push(peer && peer.subject ? { ...peer.subject } as Record<string, string> : undefined);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ Data: { hello: 'bank', path: req.url } }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let mtlsUrl: string;   // requires a client certificate, TLS 1.3
let mtls12Url: string; // the same, capped at TLS 1.2 (the refusal is a handshake alert)
let wrongUrl: string;  // serves the self-signed certificate for other.example

before(async () => {
  certs = await makeCerts();
  const mtls = { key: certs.server.key, cert: certs.server.cert, ca: certs.ca.cert, requestCert: true, rejectUnauthorized: true };
  mtlsUrl = await listen(mtls);
  mtls12Url = await listen({ ...mtls, maxVersion: 'TLSv1.2' });
  wrongUrl = await listen({ key: certs.wrong.key, cert: certs.wrong.cert });
});

after(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
  await certs.cleanup();
});

/** Runs one call with a fresh client and returns the HttpError it must fail with. */
async function failure(options: ConstructorParameters<typeof HttpClient>[0], url: string): Promise<HttpError> {
  const http = new HttpClient({ timeoutMs: 5000, ...options });
  try {
    await http.request('GET', url);
  } catch (error) {
    assert.ok(error instanceof HttpError, `expected an HttpError, got ${String(error)}`);
    // the failed call is still captured, with the error, for the report
    assert.equal(http.exchanges.length, 1);
    assert.equal(http.exchanges[0].error?.code, error.code);
    assert.equal(http.exchanges[0].response, undefined);
    return error;
  } finally {
    await http.close();
  }
  assert.fail(`GET ${url} succeeded; it should have failed`);
}

test('mTLS: a client with the CA and a client certificate gets 200, parsed JSON and an Exchange', async () => {
  const http = new HttpClient({ ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key });
  try {
    const before = seenPeers.length;
    const res = await http.request<{ Data: { hello: string; path: string } }>('GET', `${mtlsUrl}/open-banking/v3.1/aisp/accounts`);
    assert.equal(res.status, 200);
    assert.equal(res.json, true);
    assert.deepEqual(res.body, { Data: { hello: 'bank', path: '/open-banking/v3.1/aisp/accounts' } });
    assert.equal(res.exchange.method, 'GET');
    assert.equal(res.exchange.url, `${mtlsUrl}/open-banking/v3.1/aisp/accounts`);
    assert.equal(res.exchange.response?.status, 200);
    assert.equal(res.exchange.response?.json, true);
    assert.equal(res.exchange.error, undefined);
    assert.deepEqual(http.exchanges, [res.exchange]);
    // the server saw our transport certificate, OB-shaped subject and all
    assert.equal(seenPeers.length, before + 1);
    assert.deepEqual(seenPeers.at(-1), { C: 'GB', O: 'OpenBanking', OU: '0015800000TESTORG', CN: 'tpp-client' });
    // the private key the client holds never appears in what it captured
    assert.ok(!JSON.stringify(http.exchanges).includes('PRIVATE KEY'));
  } finally {
    await http.close();
  }
});

test('mTLS: http.fetch (for openid-client) uses the same certificate', async () => {
  const http = new HttpClient({ ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key });
  try {
    const res = await http.fetch(`${mtlsUrl}/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials' }), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { Data: { hello: 'bank', path: '/token' } });
    assert.equal(http.exchanges.length, 1);
    assert.equal(http.exchanges[0].method, 'POST');
    assert.equal(http.exchanges[0].response?.status, 200);
  } finally {
    await http.close();
  }
});

test('no client certificate (TLS 1.3): the error says the server requires one and none was sent', async () => {
  const error = await failure({ ca: certs.ca.cert }, `${mtlsUrl}/accounts`);
  assert.equal(error.code, 'tls_client_certificate');
  assert.match(error.message, /requires a client certificate/);
  assert.match(error.message, /none was sent/);
  assert.match(error.message, /mtls\.certFile/);
  assert.equal(error.exitCode, 3);
});

test('no client certificate (TLS 1.2): the same clear error', async () => {
  const error = await failure({ ca: certs.ca.cert }, `${mtls12Url}/accounts`);
  assert.equal(error.code, 'tls_client_certificate');
  assert.match(error.message, /requires a client certificate/);
});

test('no client certificate through http.fetch: the same clear error', async () => {
  const http = new HttpClient({ ca: certs.ca.cert });
  try {
    await assert.rejects(http.fetch(`${mtlsUrl}/token`), (error: unknown) => {
      assert.ok(error instanceof HttpError);
      assert.equal(error.code, 'tls_client_certificate');
      assert.match(error.message, /requires a client certificate/);
      return true;
    });
  } finally {
    await http.close();
  }
});

test('a client certificate the server does not trust: the error points at the client certificate', async () => {
  // the "wrong" certificate is self-signed, so the bank's CA did not issue it
  for (const url of [mtlsUrl, mtls12Url]) {
    const error = await failure({ ca: certs.ca.cert, cert: certs.wrong.cert, key: certs.wrong.key }, `${url}/accounts`);
    assert.match(error.message, /refused our client certificate/, error.message);
  }
});

test("a server certificate not signed by a trusted CA: 'not trusted'", async () => {
  // our CA is not given, so the bank's server certificate has no trusted issuer
  const untrustedIssuer = await failure({ cert: certs.client.cert, key: certs.client.key }, `${mtlsUrl}/accounts`);
  assert.equal(untrustedIssuer.code, 'tls_untrusted');
  assert.match(untrustedIssuer.message, /is not trusted/);
  assert.match(untrustedIssuer.message, /caFile/);
  // a self-signed server certificate, with some other CA configured
  const selfSigned = await failure({ ca: certs.ca.cert }, `${wrongUrl}/accounts`);
  assert.equal(selfSigned.code, 'tls_untrusted');
  assert.match(selfSigned.message, /is not trusted/);
});

test("a trusted certificate for another host: 'certificate mismatch', naming the host it is for", async () => {
  // trust the other.example certificate itself, so the only thing wrong is the host
  const error = await failure({ ca: certs.wrong.cert }, `${wrongUrl}/accounts`);
  assert.equal(error.code, 'tls_certificate_mismatch');
  assert.match(error.message, /certificate mismatch/);
  assert.match(error.message, /other\.example/);
  assert.match(error.message, /127\.0\.0\.1/);
});

test('insecure: true succeeds against an untrusted server and warns loudly through `warn`', async () => {
  const warnings: string[] = [];
  const http = new HttpClient({ insecure: true, cert: certs.client.cert, key: certs.client.key, warn: (m) => warnings.push(m) });
  try {
    const res = await http.request('GET', `${mtlsUrl}/accounts`);
    assert.equal(res.status, 200);
    const other = await http.request('GET', `${wrongUrl}/accounts`);
    assert.equal(other.status, 200);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /WARNING/);
    assert.match(warnings[0], /verification is OFF/);
    assert.match(warnings[0], /tls\.insecure/);
  } finally {
    await http.close();
  }
});

test('a verifying client does not warn', async () => {
  const warnings: string[] = [];
  const http = new HttpClient({ ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key, warn: (m) => warnings.push(m) });
  await http.close();
  assert.deepEqual(warnings, []);
});

test("certificate mismatch through http.fetch names the host the certificate is for too", async () => {
  const http = new HttpClient({ ca: certs.wrong.cert });
  try {
    await assert.rejects(http.fetch(`${wrongUrl}/.well-known/openid-configuration`), (error: unknown) => {
      assert.ok(error instanceof HttpError);
      assert.equal(error.code, 'tls_certificate_mismatch');
      assert.match(error.message, /it is for DNS:other\.example/);
      return true;
    });
  } finally {
    await http.close();
  }
});
