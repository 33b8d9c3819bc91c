/**
 * The TPP's side of the flow against the real sandbox bank, through real Chromium, on real
 * loopback sockets: client credentials, the code flow (PKCE, state, nonce, id_token) approving
 * selected accounts, reject, a driver declared in a profile, a forged state, refresh, the intent id
 * bound by claims and by a signed request object, and private_key_jwt client authentication.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { authorise } from '../../src/auth/index.ts';
import type { PsuBrowser } from '../../src/psu/index.ts';
import { AuthorisationError } from '../../src/errors.ts';
import { accountIds, closeFixture, createAisConsent, openFixture, tppFor, type Tpp } from './helpers.ts';
import { tppSignature } from '../sandbox/tpp.ts';

let sb: Sandbox;
let browser: PsuBrowser;
let evidenceDir: string;
const tpps: Tpp[] = [];

before(async () => {
  ({ sb, browser, evidenceDir } = await openFixture('obtpp-auth-test-'));
});

after(() => closeFixture({ sb, browser, evidenceDir }, tpps));

async function tpp(clientIndex = 0, patch?: (raw: Record<string, any>) => void): Promise<Tpp> {
  // These tests read the authorization URL's parameters: the plain URL, not PAR's (test/auth/par.test.ts).
  const t = await tppFor(sb, clientIndex, (raw) => {
    raw.auth.par = 'never';
    patch?.(raw);
  });
  tpps.push(t);
  return t;
}

/** No secret of this run may appear in anything the HttpClient captured. */
function assertNoSecrets(t: Tpp, secrets: Array<string | undefined>): void {
  const captured = JSON.stringify(t.http.exchanges);
  for (const s of secrets) if (s) assert.ok(!captured.includes(s), `a secret (${s.slice(0, 4)}…) reached the captured exchanges`);
}

describe('client credentials', () => {
  test('a client-credentials token, cached per function, redacted in the capture', async () => {
    const t = await tpp(0);
    assert.equal(t.auth.issuer, sb.issuer);
    const a = await t.auth.clientCredentials('ais');
    assert.equal(a.grant, 'client_credentials');
    assert.match(a.tokenType, /^bearer$/i);
    assert.ok(a.accessToken.length > 10);
    assert.ok(a.expiresAt && a.expiresAt > Date.now() + 60_000);
    assert.equal((await t.auth.clientCredentials('ais')).accessToken, a.accessToken, 'reused while valid');
    const c = await t.auth.clientCredentials('cof');
    assert.notEqual(c.accessToken, a.accessToken, 'one token per function');
    // The token works at the bank: it creates a consent.
    await createAisConsent(t, sb.baseUrls.A);
    const tokenCall = t.http.exchanges.find((e) => e.url.endsWith('/token'));
    assert.ok(tokenCall, 'the token request went through the HttpClient');
    assert.match(tokenCall.request.headers.authorization ?? '', /^Basic \[REDACTED\]$/);
    assertNoSecrets(t, [a.accessToken, c.accessToken, t.profile.auth.clientAuth.secret]);
  });

  test('a wrong client secret is the bank\'s invalid_client', async () => {
    const t = await tpp(0, (raw) => (raw.auth.clientAuth.secret = 'not-the-secret'));
    await assert.rejects(t.auth.clientCredentials('ais'), (e: unknown) => {
      assert.ok(e instanceof AuthorisationError);
      assert.equal(e.oauthError, 'invalid_client');
      assert.match(e.message, /invalid_client/);
      return true;
    });
  });
});

describe('authorization code flow through Chromium', () => {
  test('approve with selected accounts: tokens, id_token with the intent id, exactly those accounts, refresh', async () => {
    const t = await tpp(0);
    const consentId = await createAisConsent(t, sb.baseUrls.A);
    const psu = sb.psus[0]!;
    assert.ok(psu.accounts.length >= 2, 'the sandbox PSU has several accounts');
    const wanted = psu.accounts[1]!;
    // One asked for by its AccountId, as the CLI's --account does.
    const r = await authorise({ auth: t.auth, browser, profile: t.profile }, { intentId: consentId, fn: 'ais' }, { accounts: [wanted.AccountId], evidenceDir });
    assert.equal(r.outcome, 'authorised');
    if (r.outcome !== 'authorised') return;
    assert.equal(r.tokens.grant, 'authorization_code');
    assert.ok(r.tokens.idToken && r.tokens.refreshToken);
    assert.equal(r.tokens.claims?.openbanking_intent_id, consentId);
    assert.equal(r.tokens.claims?.nonce, r.pending.nonce);
    assert.deepEqual(r.journey.selectedAccounts, [wanted.AccountId]);
    assert.deepEqual(new Set(r.journey.offeredAccounts.map((a) => a.id)), new Set(psu.accounts.map((a) => a.AccountId)));
    assert.equal(r.journey.loginOrigin, new URL(sb.issuer).origin);
    assert.deepEqual(await accountIds(t, sb.baseUrls.A, r.tokens.accessToken), [wanted.AccountId]);

    const authUrl = new URL(r.pending.url);
    assert.equal(authUrl.searchParams.get('code_challenge_method'), 'S256');
    assert.deepEqual(JSON.parse(authUrl.searchParams.get('claims')!).id_token.openbanking_intent_id, { value: consentId, essential: true });
    assert.equal(authUrl.searchParams.get('scope'), 'openid accounts offline_access');

    const refreshed = await t.auth.refresh(r.tokens.refreshToken!);
    assert.equal(refreshed.grant, 'refresh_token');
    assert.notEqual(refreshed.accessToken, r.tokens.accessToken);
    assert.deepEqual(await accountIds(t, sb.baseUrls.A, refreshed.accessToken), [wanted.AccountId], 'the refreshed token serves the same consent');

    assertNoSecrets(t, [r.tokens.accessToken, r.tokens.refreshToken, r.tokens.idToken, refreshed.accessToken, r.pending.codeVerifier, psu.password]);
    assert.ok(!JSON.stringify(r.journey).includes(psu.password));
  });

  test('all offered accounts by default, chosen by Identification or name too', async () => {
    const t = await tpp(0);
    const psu = sb.psus[0]!;
    const all = await authorise({ auth: t.auth, browser, profile: t.profile }, { intentId: await createAisConsent(t, sb.baseUrls.A), fn: 'ais' });
    assert.equal(all.outcome, 'authorised');
    if (all.outcome !== 'authorised') return;
    assert.deepEqual(new Set(await accountIds(t, sb.baseUrls.A, all.tokens.accessToken)), new Set(psu.accounts.map((a) => a.AccountId)));
    const [a0, a1] = psu.accounts;
    const some = await authorise({ auth: t.auth, browser, profile: t.profile }, { intentId: await createAisConsent(t, sb.baseUrls.A), fn: 'ais' }, { accounts: [a0!.Identification, a1!.Name] });
    assert.equal(some.outcome, 'authorised');
    if (some.outcome !== 'authorised') return;
    assert.deepEqual(new Set(await accountIds(t, sb.baseUrls.A, some.tokens.accessToken)), new Set([a0!.AccountId, a1!.AccountId]));
  });

  test('reject: the bank answers access_denied, and the consent gives no access', async () => {
    const t = await tpp(0);
    const consentId = await createAisConsent(t, sb.baseUrls.A);
    const r = await authorise({ auth: t.auth, browser, profile: t.profile }, { intentId: consentId, fn: 'ais' }, { reject: true });
    assert.equal(r.outcome, 'denied');
    if (r.outcome !== 'denied') return;
    assert.equal(r.error, 'access_denied');
    assert.equal(new URL(r.journey.callbackUrl).searchParams.get('state'), r.pending.state);
    // finish() on the same answer is the typed error a CLI user sees.
    await assert.rejects(t.auth.finish(r.pending, r.journey.callbackUrl), (e: unknown) => e instanceof AuthorisationError && e.oauthError === 'access_denied');
  });

  test('a forged state is rejected, and the genuine answer still works', async () => {
    const t = await tpp(0);
    const consentId = await createAisConsent(t, sb.baseUrls.A);
    const pending = await t.auth.begin(consentId, 'ais');
    const p = t.profile;
    const journey = await browser.journey(pending.url, {
      redirectUri: pending.redirectUri, driver: p.psu.driver, username: p.psu.username, password: p.psu.password,
      stepTimeoutMs: p.timeouts.browserStepMs, totalTimeoutMs: p.timeouts.authorisationMs, evidenceDir,
    });
    const forged = new URL(journey.callbackUrl);
    forged.searchParams.set('state', 'forged-by-an-attacker');
    await assert.rejects(t.auth.finish(pending, forged.href), (e: unknown) => {
      assert.ok(e instanceof AuthorisationError);
      assert.equal(e.oauthError, 'state_mismatch');
      return true;
    });
    const noState = new URL(journey.callbackUrl);
    noState.searchParams.delete('state');
    await assert.rejects(t.auth.finish(pending, noState.href), (e: unknown) => e instanceof AuthorisationError && e.oauthError === 'state_mismatch');
    const tokens = await t.auth.finish(pending, journey.callbackUrl);
    assert.equal(tokens.claims?.openbanking_intent_id, consentId);
  });

  test('a code used twice is the bank\'s invalid_grant', async () => {
    const t = await tpp(0);
    const r = await authorise({ auth: t.auth, browser, profile: t.profile }, { intentId: await createAisConsent(t, sb.baseUrls.A), fn: 'ais' });
    await assert.rejects(t.auth.finish(r.pending, r.journey.callbackUrl), (e: unknown) => {
      assert.ok(e instanceof AuthorisationError);
      assert.equal(e.oauthError, 'invalid_grant');
      return true;
    });
  });

  test('a wrong PSU password is login_failed with the page\'s message', async () => {
    const t = await tpp(0, (raw) => (raw.psu.password = 'wrong-password-123'));
    await assert.rejects(authorise({ auth: t.auth, browser, profile: t.profile }, { intentId: await createAisConsent(t, sb.baseUrls.A), fn: 'ais' }, { evidenceDir }), (e: unknown) => {
      assert.ok(e instanceof AuthorisationError);
      assert.equal(e.oauthError, 'login_failed');
      assert.match(e.message, /^the bank refused the PSU login: \S/);
      assert.ok(!JSON.stringify({ ...e, message: e.message }).includes('wrong-password-123'));
      return true;
    });
  });

  test('an intent bound in a way the bank does not read shows the bank\'s error, as consent_error', async () => {
    // The sandbox reads the intent from claims (or a request object); a query parameter it ignores.
    const t = await tpp(0, (raw) => (raw.auth.intentBinding = { method: 'query', parameter: 'consent_id' }));
    const consentId = await createAisConsent(t, sb.baseUrls.A);
    const pending = await t.auth.begin(consentId, 'ais');
    assert.equal(new URL(pending.url).searchParams.get('consent_id'), consentId);
    assert.equal(new URL(pending.url).searchParams.get('claims'), null);
    await assert.rejects(authorise({ auth: t.auth, browser, profile: t.profile }, { intentId: consentId, fn: 'ais' }, { evidenceDir }), (e: unknown) => {
      assert.ok(e instanceof AuthorisationError);
      assert.equal(e.oauthError, 'consent_error');
      assert.ok(e.evidence?.screenshot);
      return true;
    });
  });

  test('scope binding puts the intent id in the scope', async () => {
    const t = await tpp(0, (raw) => (raw.auth.intentBinding = { method: 'scope' }));
    const pending = await t.auth.begin('intent-42', 'ais');
    assert.equal(new URL(pending.url).searchParams.get('scope'), 'openid accounts:intent-42 offline_access');
  });
});

describe('a driver declared in the profile (no built-in code)', () => {
  test('authorises against the sandbox from steps alone', async () => {
    const t = await tpp(0, (raw) => {
      raw.psu.driver = {
        kind: 'steps',
        loginError: '.error[data-testid="login-error"]',
        steps: [
          { action: 'fill', selector: 'input[name="username"]', value: '{username}' },
          { action: 'fill', selector: 'input[type="password"]', value: '{password}' },
          { action: 'click', selector: 'button[type="submit"]', waitForNavigation: true },
          { action: 'waitFor', selector: '[data-testid="consent-page"]', name: 'consent page' },
          { action: 'tickAccounts', selector: 'input[type="checkbox"][name="accounts"]', by: 'label' },
          { action: 'chooseDebtor', selector: 'input[type="radio"][name="debtor"]', optional: true },
          { action: 'decide', approve: 'button[value="approve"]', reject: 'button[value="reject"]' },
        ],
      };
    });
    assert.equal(t.profile.psu.driver.kind, 'steps');
    // By label: the sandbox's labels show each account's nickname ("Rainy day" is alice's savings).
    const wanted = sb.psus[0]!.accounts.find((a) => a.AccountId === 'alice-savings')!;
    const r = await authorise({ auth: t.auth, browser, profile: t.profile }, { intentId: await createAisConsent(t, sb.baseUrls.A), fn: 'ais' }, { accounts: ['Rainy day'], evidenceDir });
    assert.equal(r.outcome, 'authorised');
    if (r.outcome !== 'authorised') return;
    assert.deepEqual(await accountIds(t, sb.baseUrls.A, r.tokens.accessToken), [wanted.AccountId]);
    assert.ok(r.journey.steps.some((s) => s.includes('<secret>')));
    assert.ok(r.journey.steps.some((s) => /choose debtor .*skipped/.test(s)), r.journey.steps.join('\n'));

    const denied = await authorise({ auth: t.auth, browser, profile: t.profile }, { intentId: await createAisConsent(t, sb.baseUrls.A), fn: 'ais' }, { reject: true });
    assert.equal(denied.outcome, 'denied');
  });
});

describe('private_key_jwt', () => {
  test('client credentials and the code flow with a signed request object carrying the intent id', async () => {
    const client = sb.clients.find((c) => c.authMethod === 'private_key_jwt');
    assert.ok(client, 'the sandbox has a private_key_jwt client');
    const t = await tpp(sb.clients.indexOf(client), (raw) => (raw.auth.intentBinding = { method: 'request-object' }));
    assert.equal(t.profile.auth.clientAuth.method, 'private_key_jwt');
    const cc = await t.auth.clientCredentials('ais');
    const tokenCall = t.http.exchanges.find((e) => e.url.endsWith('/token'))!;
    assert.equal(tokenCall.request.headers.authorization, undefined, 'no Basic auth');
    assert.match(String(tokenCall.request.body), /client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer/);
    assert.match(String(tokenCall.request.body), /client_assertion=%5BREDACTED%5D/);

    const consentId = await createAisConsent(t, sb.baseUrls.A);
    const r = await authorise({ auth: t.auth, browser, profile: t.profile }, { intentId: consentId, fn: 'ais' }, { evidenceDir });
    assert.equal(r.outcome, 'authorised');
    if (r.outcome !== 'authorised') return;
    const sent = new URL(r.pending.url).searchParams;
    assert.ok(sent.get('request'), 'a request object was sent');
    assert.equal(sent.get('claims'), null, 'the claims travel inside the request object only');
    assert.equal(r.tokens.claims?.openbanking_intent_id, consentId);
    assert.ok((await accountIds(t, sb.baseUrls.A, r.tokens.accessToken)).length > 0);
    assertNoSecrets(t, [cc.accessToken, r.tokens.accessToken, r.tokens.refreshToken]);
  });

  test('a JWK private key works as well as a PEM', async () => {
    const client = sb.clients.find((c) => c.authMethod === 'private_key_jwt')!;
    const t = await tpp(sb.clients.indexOf(client), (raw) => (raw.auth.clientAuth.privateKey = JSON.stringify(client.privateJwk)));
    assert.ok((await t.auth.clientCredentials('cof')).accessToken);
  });
});

describe('payment consent without a debtor', () => {
  test('the PSU chooses the debtor on the consent page, and only there', async () => {
    const t = await tpp(0);
    const cc = await t.auth.clientCredentials('pis');
    const body = JSON.stringify({
        Data: {
          Initiation: {
            InstructionIdentification: 'INSTR-1', EndToEndIdentification: 'E2E-1',
            InstructedAmount: { Amount: '12.50', Currency: 'GBP' },
            CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325698', Name: 'ACME Ltd' },
          },
        },
        Risk: {},
    });
    const created = await t.http.request<{ Data?: { ConsentId?: string } }>('POST', `${sb.baseUrls.A}/domestic-payments`, {
      headers: {
        authorization: `Bearer ${cc.accessToken}`, 'x-idempotency-key': crypto.randomUUID().slice(0, 36),
        'content-type': 'application/json', 'x-jws-signature': await tppSignature(sb, body),
      },
      body,
    });
    assert.equal(created.status, 201, created.text);
    const paymentId = created.body!.Data!.ConsentId!;
    const debtor = sb.psus[0]!.accounts[1]!;
    const r = await authorise({ auth: t.auth, browser, profile: t.profile }, { intentId: paymentId, fn: 'pis' }, { debtor: debtor.Identification, evidenceDir });
    assert.equal(r.outcome, 'authorised');
    if (r.outcome !== 'authorised') return;
    assert.equal(r.journey.debtorOffered, true);
    assert.equal(r.journey.debtorChosen, debtor.AccountId);
    assert.deepEqual(r.journey.offeredAccounts, [], 'a payment offers no accounts to tick');
    assert.equal(r.tokens.claims?.openbanking_intent_id, paymentId);
    const read = await t.http.request<{ Data?: { Status?: string; Debtor?: { Identification?: string } } }>('GET', `${sb.baseUrls.A}/domestic-payments/${paymentId}`, {
      headers: { authorization: `Bearer ${cc.accessToken}` },
    });
    assert.equal(read.body?.Data?.Status, 'Authorised');
    assert.equal(read.body?.Data?.Debtor?.Identification, debtor.Identification);
  });
});
