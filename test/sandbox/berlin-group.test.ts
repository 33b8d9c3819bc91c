/**
 * The sandbox's NextGenPSD2 bank (`dialect: 'berlin-group'`), walked by a minimal TPP written
 * here (fetch, puppeteer, openid-client: nothing of the harness's client, dialect or PSU driver):
 * consent → SCA by redirect in Chromium → accounts, balances, transactions and details; funds
 * confirmation; payment → SCA → status; SCA by OAuth2 with the consent in the scope; the consent
 * statuses received → valid / rejected / revokedByPsu / expired / terminatedByTpp. Every answer
 * is validated against the OFFICIAL NextGenPSD2 1.3.12 OpenAPI file (read from ../shared).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as client from 'openid-client';
import type { Browser, HTTPRequest, Page } from 'puppeteer';
import { startSandbox } from '../../src/sandbox/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { bgSkip, officialErrors, officialValidator } from '../dialects/berlin-group-official.ts';
import { journeyPage, launchBrowser, release, signIn } from './tpp.ts';

type Json = any;
interface Answer { status: number; headers: Headers; body: Json }

const PSU_IP = '192.0.2.10';
let sb: Sandbox;
let browser: Browser;
let day = Date.now();

before(async () => {
  // The bank's clock is the test's: expiry is tested by moving it.
  [sb, browser] = await Promise.all([startSandbox({ dialect: 'berlin-group', clock: () => day }), launchBrowser({ network: true })]);
});
after(async () => {
  await browser?.close();
  await sb?.stop();
});

const base = (variant: 'A' | 'B' = 'A') => sb.baseUrls[variant];
const callback = () => sb.clients[0].redirectUri;
const alice = () => sb.psus[0];

async function call(method: string, url: string, o: { headers?: Record<string, string>; body?: unknown } = {}): Promise<Answer> {
  const requestId = randomUUID();
  const res = await fetch(url, {
    method,
    headers: { 'X-Request-ID': requestId, ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}), ...o.headers },
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
  });
  const text = await res.text();
  assert.equal(res.headers.get('x-request-id'), o.headers?.['X-Request-ID'] ?? requestId, `${method} ${url}: X-Request-ID echoed`);
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** Asserts the body is valid against the official schema (a component name, or an inline schema). */
function official(target: Parameters<typeof officialValidator>[0], body: Json): void {
  if (bgSkip) return;
  const fn = officialValidator(target);
  assert.ok(fn(body), `${typeof target === 'string' ? target : JSON.stringify(target)}: ${officialErrors(fn)}\n${JSON.stringify(body).slice(0, 400)}`);
}
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function consentBody(overrides: Json = {}): Json {
  const ibans = alice().accounts.slice(0, 2).map((a) => ({ iban: a.iban }));
  return {
    access: { accounts: ibans, balances: ibans, transactions: [ibans[0]] },
    recurringIndicator: true,
    validUntil: new Date(day + 30 * 86_400_000).toISOString().slice(0, 10),
    frequencyPerDay: 4,
    combinedServiceIndicator: false,
    ...overrides,
  };
}

async function createConsent(body: Json = consentBody(), redirect = true, variant: 'A' | 'B' = 'A'): Promise<Answer> {
  const res = await call('POST', `${base(variant)}/v1/consents`, {
    headers: { 'PSU-IP-Address': PSU_IP, ...(redirect ? { 'TPP-Redirect-URI': callback(), 'TPP-Redirect-Preferred': 'true' } : {}) },
    body,
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  official('consentsResponse-201', res.body);
  return res;
}

/** The PSU on the bank's pages: log in, tick when asked, decide; resolves with the URL the bank sent the browser back to. */
async function psuDecides(url: string, o: { decision?: 'approve' | 'reject'; tick?: string[]; back?: string } = {}): Promise<string> {
  const page: Page = await journeyPage(browser);
  const back = o.back ?? callback();
  let watch: (r: HTTPRequest) => void = () => undefined;
  let done = false;
  try {
    const returned = new Promise<string>((resolve) => {
      watch = (r) => {
        if (r.isNavigationRequest() && r.url().startsWith(back)) resolve(r.url());
      };
      page.on('request', watch);
    });
    await page.goto(url);
    await signIn(page, alice().username, alice().password);
    await Promise.all([page.waitForNavigation(), page.click('[data-testid="login"]')]);
    await page.waitForSelector('[data-testid="consent-page"]');
    for (const id of o.tick ?? []) await page.click(`[data-testid="account-option"][value="${id}"]`);
    await page.click(`[data-testid="${o.decision ?? 'approve'}"]`);
    const came = await returned;
    done = true;
    return came;
  } finally {
    page.off('request', watch);
    await release(browser, page, done);
  }
}

const data = (path: string, consentId: string, headers: Record<string, string> = {}) =>
  call('GET', `${base()}/v1/accounts${path}`, { headers: { 'Consent-ID': consentId, 'PSU-IP-Address': PSU_IP, ...headers } });

describe('berlin-group sandbox: account information with SCA by redirect', () => {
  let consentId: string;

  test('POST /v1/consents: 201, status received, scaRedirect/self/status/scaStatus links, Location and ASPSP-SCA-Approach', async () => {
    const res = await createConsent();
    consentId = res.body.consentId;
    assert.equal(res.body.consentStatus, 'received');
    assert.deepEqual(Object.keys(res.body._links).sort(), ['scaRedirect', 'scaStatus', 'self', 'status']);
    assert.equal(res.headers.get('location'), res.body._links.self.href);
    assert.equal(res.headers.get('aspsp-sca-approach'), 'REDIRECT');
    const status = await call('GET', res.body._links.status.href);
    official('consentStatusResponse-200', status.body);
    assert.equal(status.body.consentStatus, 'received');
    const sca = await call('GET', res.body._links.scaStatus.href);
    official('scaStatusResponse', sca.body);
    assert.equal(sca.body.scaStatus, 'received');
    // Not valid yet: no data.
    const early = await data('', consentId);
    assert.equal(early.status, 401);
    official(ref('Error401_NG_AIS'), early.body);
    assert.equal(early.body.tppMessages[0].code, 'CONSENT_INVALID');
  });

  test('the PSU approves on the bank\'s pages (Chromium): back to TPP-Redirect-URI, consent valid, SCA finalised', async () => {
    const created = await call('GET', `${base()}/v1/consents/${consentId}/authorisations`);
    official('authorisations', created.body);
    const [authorisationId] = created.body.authorisationIds;
    const back = await psuDecides(`${sb.issuer}/bg/sca/${authorisationId}`);
    assert.equal(back, callback());
    const status = await call('GET', `${base()}/v1/consents/${consentId}/status`);
    assert.equal(status.body.consentStatus, 'valid');
    const sca = await call('GET', `${base()}/v1/consents/${consentId}/authorisations/${authorisationId}`);
    assert.equal(sca.body.scaStatus, 'finalised');
    const consent = await call('GET', `${base()}/v1/consents/${consentId}`);
    official('consentInformationResponse-200_json', consent.body);
    assert.deepEqual(consent.body.access, consentBody().access);
  });

  test('accounts, balances, transactions (bookingStatus, dateFrom/dateTo) and a transaction\'s details', async () => {
    const [current, savings] = alice().accounts;
    const list = await data('?withBalance=true', consentId);
    assert.equal(list.status, 200);
    official('accountList', list.body);
    assert.deepEqual(list.body.accounts.map((a: Json) => a.iban), [current.iban, savings.iban]);
    assert.ok(list.body.accounts[0]._links.transactions && !list.body.accounts[1]._links.transactions, 'transactions link only where the consent gives transactions');

    const one = await data(`/${current.AccountId}`, consentId);
    official({ type: 'object', required: ['account'], properties: { account: ref('accountDetails') } }, one.body);
    const balances = await data(`/${savings.AccountId}/balances`, consentId);
    official('readAccountBalanceResponse-200', balances.body);
    assert.deepEqual(balances.body.balances.map((b: Json) => b.balanceType), ['closingBooked', 'interimAvailable']);

    const from = new Date(day - 60 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(day - 30 * 86_400_000).toISOString().slice(0, 10);
    const txns = await data(`/${current.AccountId}/transactions?bookingStatus=booked&dateFrom=${from}&dateTo=${to}`, consentId);
    assert.equal(txns.status, 200);
    official('transactionsResponse-200_json', txns.body);
    const booked = txns.body.transactions.booked as Json[];
    assert.ok(booked.length > 0);
    assert.ok(booked.every((t) => t.bookingDate >= from && t.bookingDate <= to), 'dateFrom/dateTo bound the transactions');
    const detail = await call('GET', booked[0]._links.transactionDetails.href, { headers: { 'Consent-ID': consentId, 'PSU-IP-Address': PSU_IP } });
    official({ type: 'object', required: ['transactionsDetails'], properties: { transactionsDetails: ref('transactions') } }, detail.body);
    assert.equal(detail.body.transactionsDetails.transactionId, booked[0].transactionId);

    // The consent gives no transactions of the savings account, and no bookingStatus is a format error.
    const refused = await data(`/${savings.AccountId}/transactions?bookingStatus=booked&dateFrom=${from}`, consentId);
    assert.equal(refused.status, 401);
    official(ref('Error401_NG_AIS'), refused.body);
    const noStatus = await data(`/${current.AccountId}/transactions?dateFrom=${from}`, consentId);
    assert.deepEqual([noStatus.status, noStatus.body.tppMessages[0].code], [400, 'FORMAT_ERROR']);
    official(ref('Error400_NG_AIS'), noStatus.body);
    const bob = await data(`/${sb.psus[1].accounts[0].AccountId}`, consentId);
    assert.equal(bob.status, 403);
    official(ref('Error403_NG_AIS'), bob.body);
  });

  test('errors: a missing Consent-ID in tppMessages, or RFC 7807 when the TPP accepts application/problem+json', async () => {
    const ng = await call('GET', `${base()}/v1/accounts`);
    assert.deepEqual([ng.status, ng.body.tppMessages[0].code, ng.body.tppMessages[0].path], [400, 'FORMAT_ERROR', 'Consent-ID']);
    const problem = await call('GET', `${base()}/v1/accounts`, { headers: { Accept: 'application/problem+json' } });
    assert.equal(problem.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    official(ref('Error400_AIS'), problem.body);
    assert.equal(problem.body.code, 'FORMAT_ERROR');
    const res = await fetch(`${base()}/v1/accounts`, { headers: { 'Consent-ID': consentId } });
    assert.equal(res.status, 400, 'no X-Request-ID');
  });

  test('frequencyPerDay bounds the accesses without the PSU: 429 ACCESS_EXCEEDED', async () => {
    const res = await createConsent(consentBody({ frequencyPerDay: 2 }));
    await psuDecides(res.body._links.scaRedirect.href);
    const id = res.body.consentId;
    const unattended = () => call('GET', `${base()}/v1/accounts`, { headers: { 'Consent-ID': id } });
    assert.equal((await unattended()).status, 200);
    assert.equal((await unattended()).status, 200);
    const third = await unattended();
    assert.deepEqual([third.status, third.body.tppMessages[0].code], [429, 'ACCESS_EXCEEDED']);
    official(ref('Error429_NG_AIS'), third.body);
    assert.equal((await data('', id)).status, 200, 'with the PSU present (PSU-IP-Address), no limit');
  });

  test('a bank-offered consent: the PSU ticks the accounts on the bank\'s page', async () => {
    const res = await createConsent(consentBody({ access: { accounts: [], balances: [] } }));
    await psuDecides(res.body._links.scaRedirect.href, { tick: [alice().accounts[2].AccountId] });
    const list = await data('', res.body.consentId);
    assert.deepEqual(list.body.accounts.map((a: Json) => a.resourceId), [alice().accounts[2].AccountId]);
  });

  test('statuses: rejected, revokedByPsu, expired (401 CONSENT_EXPIRED), terminatedByTpp (DELETE 204)', async () => {
    const rejected = await createConsent();
    const back = await psuDecides(rejected.body._links.scaRedirect.href, { decision: 'reject' });
    assert.equal(back, callback());
    assert.equal((await call('GET', rejected.body._links.status.href)).body.consentStatus, 'rejected');

    const revoked = await createConsent();
    await psuDecides(revoked.body._links.scaRedirect.href);
    assert.equal(sb.psuRevoke(revoked.body.consentId), true);
    assert.equal((await call('GET', revoked.body._links.status.href)).body.consentStatus, 'revokedByPsu');

    const short = await createConsent(consentBody({ validUntil: new Date(day + 86_400_000).toISOString().slice(0, 10) }));
    await psuDecides(short.body._links.scaRedirect.href);
    day += 3 * 86_400_000;
    try {
      const expired = await data('', short.body.consentId);
      assert.deepEqual([expired.status, expired.body.tppMessages[0].code], [401, 'CONSENT_EXPIRED']);
      assert.equal((await call('GET', short.body._links.status.href)).body.consentStatus, 'expired');
    } finally {
      day -= 3 * 86_400_000;
    }

    const deleted = await call('DELETE', `${base()}/v1/consents/${consentId}`);
    assert.equal(deleted.status, 204);
    assert.equal((await call('GET', `${base()}/v1/consents/${consentId}/status`)).body.consentStatus, 'terminatedByTpp');
    assert.equal((await data('', consentId)).body.tppMessages[0].code, 'CONSENT_INVALID');
    const unknown = await call('GET', `${base()}/v1/consents/nope`);
    assert.equal(unknown.status, 404);
    official(ref('Error404_NG_AIS'), unknown.body);
  });

  test('a malformed consent is refused with the field named: a one-off consent with frequencyPerDay 4', async () => {
    const res = await call('POST', `${base()}/v1/consents`, { headers: { 'PSU-IP-Address': PSU_IP }, body: consentBody({ recurringIndicator: false }) });
    assert.deepEqual([res.status, res.body.tppMessages[0].code, res.body.tppMessages[0].path], [400, 'FORMAT_ERROR', 'frequencyPerDay']);
    const noIp = await call('POST', `${base()}/v1/consents`, { body: consentBody() });
    assert.deepEqual([noIp.status, noIp.body.tppMessages[0].path], [400, 'PSU-IP-Address']);
  });
});

describe('berlin-group sandbox: SCA by OAuth2 (scaOAuth, scope AIS:{consentId})', () => {
  test('the consent in the scope: token for that consent only; no token, no data', async () => {
    const created = await createConsent(consentBody(), false);
    // The file's enum has no OAUTH: OAuth2 is the REDIRECT approach with the scaOAuth link.
    assert.equal(created.headers.get('aspsp-sca-approach'), 'REDIRECT');
    const discovery = new URL(created.body._links.scaOAuth.href);
    const c = sb.clients[0];
    const config = await client.discovery(discovery, c.clientId, undefined, client.ClientSecretBasic(c.clientSecret!), { execute: [client.allowInsecureRequests] });
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: callback(), scope: `AIS:${created.body.consentId}`, state,
      code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    });
    const back = await psuDecides(url.href);
    const tokens = await client.authorizationCodeGrant(config, new URL(back), { pkceCodeVerifier: verifier, expectedState: state });
    assert.ok(tokens.scope?.split(' ').includes(`AIS:${created.body.consentId}`), tokens.scope);
    assert.equal((await call('GET', created.body._links.status.href)).body.consentStatus, 'valid');
    const withToken = await data('', created.body.consentId, { Authorization: `Bearer ${tokens.access_token}` });
    assert.equal(withToken.status, 200);
    official('accountList', withToken.body);
    const without = await data('', created.body.consentId);
    assert.deepEqual([without.status, without.body.tppMessages[0].code], [401, 'TOKEN_INVALID']);

    // Another OAuth consent: the first token does not open it.
    const other = await createConsent(consentBody(), false);
    const state2 = client.randomState();
    const url2 = client.buildAuthorizationUrl(config, {
      redirect_uri: callback(), scope: `AIS:${other.body.consentId}`, state: state2,
      code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    });
    await psuDecides(url2.href);
    const wrong = await data('', other.body.consentId, { Authorization: `Bearer ${tokens.access_token}` });
    assert.deepEqual([wrong.status, wrong.body.tppMessages[0].code], [401, 'TOKEN_INVALID']);
  });
});

describe('berlin-group sandbox: funds confirmation and payments', () => {
  test('POST /v1/funds-confirmations: 200 with only fundsAvailable, true exactly when covered', async () => {
    const [current] = alice().accounts;
    const ask = (amount: string, iban = current.iban) => call('POST', `${base('B')}/v1/funds-confirmations`, { body: { account: { iban }, instructedAmount: { currency: 'EUR', amount } } });
    const yes = await ask('10.00');
    assert.equal(yes.status, 200);
    official('fundsConfirmationResponse200' as never, yes.body);
    assert.deepEqual(yes.body, { fundsAvailable: true });
    assert.deepEqual((await ask('99999999.00')).body, { fundsAvailable: false });
    const carol = await ask('1.00', sb.psus[2].accounts[0].iban);
    assert.deepEqual([carol.status, carol.body.tppMessages[0].code], [400, 'NO_PIIS_ACTIVATION']);
    official(ref('Error400_NG_PIIS'), carol.body);
  });

  test('POST /v1/payments/{payment-product} → SCA by redirect → status ACTC (SCT) / ACSC (instant); RJCT when rejected', async () => {
    const [current] = alice().accounts;
    const pay = (product: string) => call('POST', `${base()}/v1/payments/${product}`, {
      headers: { 'PSU-IP-Address': PSU_IP, 'TPP-Redirect-URI': callback() },
      body: { debtorAccount: { iban: current.iban }, instructedAmount: { currency: 'EUR', amount: '12.50' }, creditorAccount: { iban: 'FR7630006000011234567890189' }, creditorName: 'Merchant SA', remittanceInformationUnstructured: 'Invoice 42' },
    });
    for (const [product, final] of [['sepa-credit-transfers', 'ACTC'], ['instant-sepa-credit-transfers', 'ACSC']] as const) {
      const created = await pay(product);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      official('paymentInitiationRequestResponse-201', created.body);
      assert.equal(created.body.transactionStatus, 'RCVD');
      await psuDecides(created.body._links.scaRedirect.href);
      const status = await call('GET', created.body._links.status.href);
      official('paymentInitiationStatusResponse-200_json', status.body);
      assert.equal(status.body.transactionStatus, final);
      const got = await call('GET', created.body._links.self.href);
      official('paymentInitiationWithStatusResponse', got.body);
      assert.equal(got.body.creditorName, 'Merchant SA');
    }
    const rejected = await pay('sepa-credit-transfers');
    await psuDecides(rejected.body._links.scaRedirect.href, { decision: 'reject' });
    assert.equal((await call('GET', rejected.body._links.status.href)).body.transactionStatus, 'RJCT');
    const unknown = await call('POST', `${base()}/v1/payments/no-such-product`, { headers: { 'PSU-IP-Address': PSU_IP }, body: {} });
    assert.deepEqual([unknown.status, unknown.body.tppMessages[0].code], [404, 'PRODUCT_UNKNOWN']);
    official(ref('Error404_NG_PIS'), unknown.body);
  });

  test('variant B: no payments and no transaction details', async () => {
    const res = await call('POST', `${base('B')}/v1/payments/sepa-credit-transfers`, { headers: { 'PSU-IP-Address': PSU_IP }, body: {} });
    assert.equal(res.status, 404);
    const detail = await call('GET', `${base('B')}/v1/accounts/alice-current/transactions/alice-current-0001`, { headers: { 'Consent-ID': 'x' } });
    assert.equal(detail.status, 404);
  });
});
