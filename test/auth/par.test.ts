/**
 * Pushed authorization requests (RFC 9126) on the TPP's side, against the real sandbox (which
 * advertises a PAR endpoint) and a discovery document without one: obtpp pushes where the bank
 * offers PAR (auth.par auto), never when told not to, and refuses to run when told always and the
 * bank has none. The checks SEC-12 and SEC-13 send — a push without client authentication, no PKCE,
 * plain PKCE — are refused by the sandbox.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { Auth, authorise } from '../../src/auth/index.ts';
import type { PsuBrowser } from '../../src/psu/index.ts';
import { AuthorisationError, ProfileError } from '../../src/errors.ts';
import { profileFromObject } from '../../src/profile/load.ts';
import { httpFromProfile } from '../../src/client/factory.ts';
import { listenLoopback } from '../helpers/loopback.ts';
import { closeFixture, createAisConsent, openFixture, tppFor, type Tpp } from './helpers.ts';

describe('auth: pushed authorization requests', () => {
  let sb: Sandbox;
  let browser: PsuBrowser;
  let evidenceDir: string;
  const tpps: Tpp[] = [];
  const tpp = async (clientIndex = 0, patch?: (raw: Record<string, any>) => void) => {
    const t = await tppFor(sb, clientIndex, patch);
    tpps.push(t);
    return t;
  };

  before(async () => {
    ({ sb, browser, evidenceDir } = await openFixture('obtpp-par-test-'));
  });
  after(() => closeFixture({ sb, browser, evidenceDir }, tpps));

  test('auto: where the bank offers PAR, the parameters are pushed and the URL carries only client_id and request_uri', async () => {
    const t = await tpp();
    assert.equal(t.profile.auth.par, 'auto');
    assert.equal(t.auth.parEndpoint, `${sb.issuer}/request`);
    assert.ok(t.auth.usesPar);
    const pending = await t.auth.begin(await createAisConsent(t, sb.baseUrls.A), 'ais');
    const url = new URL(pending.url);
    assert.deepEqual([...url.searchParams.keys()].sort(), ['client_id', 'request_uri']);
    assert.match(url.searchParams.get('request_uri')!, /^urn:ietf:params:oauth:request_uri:/);
    const pushed = t.http.exchanges.find((e) => e.method === 'POST' && e.url === `${sb.issuer}/request`);
    assert.ok(pushed, 'the request was pushed');
    assert.equal(pushed.response?.status, 201);
    assert.match(String(pushed.request.body), /code_challenge_method=S256/);
    assert.ok(!String(pushed.request.body).includes(pending.codeVerifier!), 'the code verifier never travels');
  });

  test('a pushed request object (request-object binding, private_key_jwt) carries the PSU through to tokens bound to the consent', async () => {
    const index = sb.clients.findIndex((c) => c.authMethod === 'private_key_jwt');
    const t = await tpp(index, (raw) => (raw.auth.intentBinding = { method: 'request-object' }));
    const consentId = await createAisConsent(t, sb.baseUrls.A);
    const r = await authorise({ auth: t.auth, browser, profile: t.profile }, { intentId: consentId, fn: 'ais' }, { evidenceDir });
    assert.equal(r.outcome, 'authorised');
    if (r.outcome !== 'authorised') return;
    assert.ok(new URL(r.pending.url).searchParams.get('request_uri'));
    const pushed = t.http.exchanges.find((e) => e.method === 'POST' && e.url === `${sb.issuer}/request`);
    assert.match(String(pushed?.request.body), /(^|&)request=/, 'the request object was pushed');
    assert.equal(r.tokens.claims?.openbanking_intent_id, consentId);

    const bare = await t.auth.unauthenticatedPar(await createAisConsent(t, sb.baseUrls.A), 'ais');
    assert.equal(bare.status, 401, 'the unauthenticated push (SEC-12) carries the signed request object, and is refused for want of client authentication only');
    const sent = String(t.http.exchanges.at(-1)?.request.body);
    assert.match(sent, /(^|&)request=/);
    assert.doesNotMatch(sent, /client_assertion/);
  });

  test('never: the plain authorization URL, even where the bank offers PAR', async () => {
    const t = await tpp(0, (raw) => (raw.auth.par = 'never'));
    assert.equal(t.auth.usesPar, false);
    const url = new URL((await t.auth.begin('intent-1', 'ais')).url);
    assert.equal(url.searchParams.get('request_uri'), null);
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
  });

  test('always, at a bank whose discovery advertises no PAR endpoint: a profile error naming auth.par', async () => {
    const server = createServer((req, res) => {
      const issuer = `http://${req.headers.host}`;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` }));
    });
    const { base, close } = await listenLoopback(server);
    try {
      const raw = structuredClone(sb.profile('A')) as Record<string, any>;
      Object.assign(raw.auth, { issuer: base, par: 'always' });
      const profile = await profileFromObject(raw, { source: 'sandbox', env: {} });
      const http = httpFromProfile(profile, { warn: () => undefined });
      try {
        await assert.rejects(Auth.create(profile, http), (e: unknown) => e instanceof ProfileError && e.exitCode === 2 && /\$\.auth\.par: always/.test(e.message));
        raw.auth.par = 'auto';
        const auto = await Auth.create(await profileFromObject(raw, { source: 'sandbox', env: {} }), http);
        assert.equal(auto.usesPar, false, 'auto without a PAR endpoint: the plain URL');
      } finally {
        await http.close();
      }
    } finally {
      await close();
    }
  });

  test('discovery is kept per HTTP client, not per process: another client meets the bank now at that URL', async () => {
    // One URL, two banks in turn (as a loopback port the system gives again): the first offers PAR, the second does not.
    let offersPar = true;
    let fetched = 0;
    const server = createServer((req, res) => {
      const issuer = `http://${req.headers.host}`;
      fetched++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks`, ...(offersPar ? { pushed_authorization_request_endpoint: `${issuer}/par` } : {}) }));
    });
    const { base, close } = await listenLoopback(server);
    const raw = structuredClone(sb.profile('A')) as Record<string, any>;
    Object.assign(raw.auth, { issuer: base, par: 'auto' });
    const profile = await profileFromObject(raw, { source: 'sandbox', env: {} });
    const first = httpFromProfile(profile, { warn: () => undefined });
    const second = httpFromProfile(profile, { warn: () => undefined });
    try {
      assert.equal((await Auth.create(profile, first)).usesPar, true);
      offersPar = false;
      assert.equal((await Auth.create(profile, first)).usesPar, true, 'the same client discovers once');
      assert.equal(fetched, 1);
      assert.equal((await Auth.create(profile, second)).usesPar, false, 'another client reads the bank as it is now');
      assert.equal(fetched, 2);
    } finally {
      await first.close();
      await second.close();
      await close();
    }
  });

  test('the sandbox refuses a push without client authentication (SEC-12), without PKCE or with plain PKCE (SEC-13)', async () => {
    const t = await tpp();
    const consentId = await createAisConsent(t, sb.baseUrls.A);
    const bare = await t.auth.unauthenticatedPar(consentId, 'ais');
    assert.equal(bare.status, 401, bare.text);
    assert.equal((bare.body as { error?: string }).error, 'invalid_client');
    for (const pkce of ['none', 'plain'] as const) {
      await assert.rejects(t.auth.begin(consentId, 'ais', { pkce }), (e: unknown) => e instanceof AuthorisationError && e.oauthError === 'invalid_request', pkce);
    }
    const plainUrl = new URL((await t.auth.begin(consentId, 'ais', { pkce: 'none', par: false })).url);
    assert.equal(plainUrl.searchParams.get('code_challenge'), null);
    const answer = await t.http.request('GET', plainUrl.href, { headers: { accept: 'text/html' } });
    assert.equal(answer.status, 303);
    assert.equal(new URL(answer.headers.location!).searchParams.get('error'), 'invalid_request', 'refused on the redirect URI, not the login page');
  });
});
