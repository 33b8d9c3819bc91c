// The sandbox's authorization endpoint enforces FAPI's request-object checks (SEC-11): an unsigned
// request object, one without exp or with an expired exp, and one naming a consent that is not
// awaiting this client's authorisation are refused with an OAuth error on the redirect URI,
// never with the login page; a well-formed one goes on to the login page. Pushed authorization
// requests (RFC 9126) need client authentication, and PKCE (S256) is required, pushed or not.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'puppeteer';
import { startSandbox } from '../../src/sandbox/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import * as client from 'openid-client';
import { aisBody, launchBrowser, Tpp } from './tpp.ts';

describe('sandbox: request objects (FAPI)', () => {
  let sb: Sandbox;
  let tpp: Tpp;
  let other: Tpp;
  let cc: string;

  before(async () => {
    sb = await startSandbox();
    tpp = await Tpp.connect(sb);
    other = await Tpp.connect(sb, 1);
    cc = await tpp.cc('accounts');
  });
  after(async () => {
    await sb?.stop();
  });

  const awaiting = async () => (await tpp.api('A', 'POST', '/account-access-consents', { token: cc, body: aisBody() })).body.Data.ConsentId as string;

  test('a well-formed request object goes on to the login page', async () => {
    const r = await tpp.requestObject(await awaiting(), 'accounts', 'well-formed');
    assert.equal(r.went, 'login', JSON.stringify(r));
  });

  for (const defect of ['none', 'no-exp', 'expired'] as const) {
    test(`a request object ${defect === 'none' ? 'signed with alg none' : defect === 'no-exp' ? 'without exp' : 'with an expired exp'} is refused with invalid_request_object on the redirect URI`, async () => {
      const r = await tpp.requestObject(await awaiting(), 'accounts', defect);
      assert.equal(r.went, 'error', JSON.stringify(r));
      assert.equal(r.error, 'invalid_request_object');
      assert.ok(r.location!.startsWith(sb.clients[0].redirectUri));
    });
  }

  test('PAR is advertised; a push without client authentication is refused (401 invalid_client), an authenticated one gives a request_uri', async () => {
    const meta = tpp.config.serverMetadata();
    assert.equal(meta.pushed_authorization_request_endpoint, `${sb.issuer}/request`);
    const { url } = await tpp.authorizationUrl(await awaiting(), 'accounts');
    const bare = await fetch(meta.pushed_authorization_request_endpoint!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: url.searchParams.toString() });
    assert.equal(bare.status, 401);
    assert.equal((await bare.json() as { error: string }).error, 'invalid_client');
    const pushed = await client.buildAuthorizationUrlWithPAR(tpp.config, url.searchParams);
    assert.match(pushed.searchParams.get('request_uri')!, /^urn:ietf:params:oauth:request_uri:/);
  });

  test('PKCE is required: without a code_challenge, or with plain, the request is refused (pushed or not)', async () => {
    for (const method of ['none', 'plain'] as const) {
      const { url, verifier } = await tpp.authorizationUrl(await awaiting(), 'accounts');
      url.searchParams.delete('code_challenge');
      url.searchParams.delete('code_challenge_method');
      if (method === 'plain') {
        url.searchParams.set('code_challenge', verifier);
        url.searchParams.set('code_challenge_method', 'plain');
      }
      const res = await fetch(url, { redirect: 'manual' });
      assert.equal(new URL(res.headers.get('location')!).searchParams.get('error'), 'invalid_request', `${method}: refused on the redirect URI`);
      await assert.rejects(client.buildAuthorizationUrlWithPAR(tpp.config, url.searchParams), (e: unknown) => (e as { error?: string }).error === 'invalid_request', `${method}: the push is refused`);
    }
  });

  test('a request object naming an unknown consent, another client\'s, or one already decided is refused', async () => {
    assert.equal((await tpp.requestObject('no-such-consent', 'accounts', 'well-formed')).error, 'invalid_request_object');
    const theirs = (await other.api('A', 'POST', '/account-access-consents', { token: await other.cc('accounts'), body: aisBody() })).body.Data.ConsentId;
    assert.equal((await tpp.requestObject(theirs, 'accounts', 'well-formed')).error, 'invalid_request_object');
    let browser: Browser | undefined;
    try {
      browser = await launchBrowser();
      const id = await awaiting();
      assert.ok((await tpp.authorise(browser, id, 'accounts')).tokens);
      assert.equal((await tpp.requestObject(id, 'accounts', 'well-formed')).error, 'invalid_request_object');
    } finally {
      await browser?.close();
    }
  });
});
