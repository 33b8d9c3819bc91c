/**
 * tls_client_auth over mTLS against the sandbox served over https with its own private CA: the
 * same undici dispatcher (client certificate) for the authorisation server and the API, a
 * certificate-bound token, and the code flow in Chromium trusting exactly the profile's CA.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { authorise } from '../../src/auth/index.ts';
import { PsuBrowser } from '../../src/psu/index.ts';
import { AuthorisationError, HttpError } from '../../src/errors.ts';
import { accountIds, createAisConsent, tppFor, type Tpp } from './helpers.ts';

let sb: Sandbox;
let browser: PsuBrowser;
const tpps: Tpp[] = [];

before(async () => {
  sb = await startSandbox({ tls: true, quiet: true });
  browser = new PsuBrowser({ env: process.env });
});

after(async () => {
  await browser.close();
  for (const t of tpps) await t.http.close();
  await sb.stop();
});

function mtlsIndex(): number {
  const i = sb.clients.findIndex((c) => c.authMethod === 'tls_client_auth');
  assert.ok(i >= 0, 'the https sandbox has a tls_client_auth client');
  return i;
}

test('tls_client_auth: client credentials and the code flow, over the client certificate', async () => {
  const t = await tppFor(sb, mtlsIndex());
  tpps.push(t);
  assert.equal(t.profile.auth.clientAuth.method, 'tls_client_auth');
  assert.match(t.auth.issuer, /^https:/);
  const cc = await t.auth.clientCredentials('ais');
  assert.ok(cc.accessToken);
  const tokenCall = t.http.exchanges.find((e) => e.url.endsWith('/token'))!;
  assert.equal(tokenCall.request.headers.authorization, undefined, 'no secret, no assertion: the certificate authenticates');
  assert.doesNotMatch(String(tokenCall.request.body), /client_assertion|client_secret/);
  assert.match(String(tokenCall.request.body), /client_id=obtpp-sandbox-mtls|client_id=/);

  const consentId = await createAisConsent(t, sb.baseUrls.A);
  const r = await authorise({ auth: t.auth, browser, profile: t.profile }, { intentId: consentId, fn: 'ais' });
  assert.equal(r.outcome, 'authorised');
  if (r.outcome !== 'authorised') return;
  assert.equal(r.tokens.claims?.openbanking_intent_id, consentId);
  assert.ok((await accountIds(t, sb.baseUrls.A, r.tokens.accessToken)).length > 0);
  const refreshed = await t.auth.refresh(r.tokens.refreshToken!);
  assert.ok((await accountIds(t, sb.baseUrls.A, refreshed.accessToken)).length > 0);
});

test('without the client certificate the bank refuses the client', async () => {
  const t = await tppFor(sb, mtlsIndex(), (raw) => {
    // Keep the CA (so TLS itself works) but drop the certificate: the profile must then say
    // tls_client_auth cannot work, or the bank must refuse.
    raw.mtls = { ca: raw.mtls.ca };
  }).catch((e: unknown) => e);
  if (t instanceof Error) {
    assert.match(t.message, /client certificate and key are required/);
    return;
  }
  tpps.push(t as Tpp);
  await assert.rejects((t as Tpp).auth.clientCredentials('ais'), (e: unknown) => e instanceof AuthorisationError || e instanceof HttpError);
});
