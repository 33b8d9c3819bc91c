import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser } from 'puppeteer';
import { listFaults, startSandbox, UnknownFaultError } from '../../src/sandbox/index.ts';
import type { ChaosFaultName, FaultName, Sandbox } from '../../src/sandbox/index.ts';
import type { DataFaultName } from '../../src/sandbox/faults.ts';
import { aisBody, cofBody, fundsBody, launchBrowser, paymentBody, Tpp, tppSignature } from './tpp.ts';
import { fetch as undiciFetch } from 'undici';
import { PIS_FAMILY_PROOFS } from './pis-family-proofs.ts';
import { V4_PIS_PROOFS } from './v4-pis-proofs.ts';
import { SECURITY_PROOFS } from './security-proofs.ts';
import { OIDF_PROOFS } from './oidf-proofs.ts';
import { profileFromObject } from '../../src/profile/load.ts';
import { httpFromProfile } from '../../src/client/factory.ts';
import { registrationClaims, registrationFrom, sendRegistration, signRegistration } from '../../src/auth/register.ts';
import { TppClient } from '../../src/client/operations.ts';
import { buildVrp, buildVrpConsent, buildVrpFundsConfirmation } from '../../src/dialects/obie/builders.ts';

/** A VRP consent at the sandbox's UK Read/Write v3.1.11 layout, authorised by the PSU, and a way to pay under it. */
async function vrpConsent(w: World, o: { perPayment: string; perDay: string; validFrom?: string; validTo?: string }) {
  const profile = await profileFromObject(w.sb.profile('uk-3.1'), { source: 'sandbox', env: {} });
  const client = new TppClient(profile, 'A', httpFromProfile(profile));
  const body = buildVrpConsent({
    creditor: { schemeName: 'UK.OBIE.SortCodeAccountNumber', identification: '08080021325698', name: 'ACME Inc' },
    debtor: { schemeName: 'UK.OBIE.SortCodeAccountNumber', identification: JOINT, name: 'Alice' },
    maximumIndividualAmount: { amount: o.perPayment, currency: 'GBP' },
    periodicLimits: [{ periodType: 'Day', periodAlignment: 'Calendar', amount: o.perDay, currency: 'GBP' }],
    ...(o.validFrom ? { validFrom: o.validFrom } : {}),
    ...(o.validTo ? { validTo: o.validTo } : {}),
  });
  const created = await client.createVrpConsent(body, { token: await w.tpp.cc('payments') });
  assert.equal(created.status, 201, created.text);
  const id = created.body.Data.ConsentId as string;
  const token = (await w.tpp.authorise(w.browser, id, 'payments')).tokens!.access_token;
  let n = 0;
  const payment = (amount: string) => {
    n += 1;
    return buildVrp(id, body, { instructionIdentification: `VRP-${n}`, endToEndIdentification: `E2E-${n}`, amount, currency: 'GBP' });
  };
  const pay = (amount: string) => client.createVrp(payment(amount), { token });
  return { client, id, token, pay, payment, body };
}

/** A tpp client of the sandbox's UK Read/Write v4.0 layout. */
async function v4Client(sb: Sandbox): Promise<TppClient> {
  const profile = await profileFromObject(sb.profile('uk-4.0'), { source: 'sandbox', env: {} });
  return new TppClient(profile, 'A', httpFromProfile(profile));
}

const HOUR = 3_600_000;
const JOINT = '40400411290147';

interface World {
  sb: Sandbox;
  tpp: Tpp;
  browser: Browser;
  /** Moves the bank's clock. */
  advance(ms: number): void;
  /** Creates and authorises an AIS consent for alice. */
  ais(body?: ReturnType<typeof aisBody>, accounts?: string[]): Promise<{ id: string; token: string }>;
  /** Creates and authorises a funds consent on alice-joint (350.00 available). */
  cof(expiresInMs?: number): Promise<{ id: string; token: string }>;
}

/** A read of the UK layout's account-information API (…/open-banking/v3.1/aisp). */
async function ukGet(w: World, path: string, token: string | null) {
  const res = await fetch(`${w.sb.issuer}/open-banking/v3.1/aisp${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await res.text();
  // A refusal may come without a body (a 401, say): its status is what the proof reads.
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any };
}

/** An authorised payment-order consent, its PSU token and the payment order that matches it. */
async function submittable(w: World) {
  const body = paymentBody({ debtor: JOINT });
  const created = await w.tpp.api('A', 'POST', '/domestic-payments', { token: await w.tpp.cc('payments'), body, headers: { 'x-idempotency-key': 'c1' } });
  const result = await w.tpp.authorise(w.browser, created.body.Data.ConsentId, 'payments');
  const id = created.body.Data.ConsentId as string;
  return { id, token: result.tokens!.access_token, order: { Data: { ConsentId: id, Initiation: body.Data.Initiation }, Risk: body.Risk } };
}

/** A fault that breaks a rule (the chaos faults have their own proofs, in chaos.test.ts). */
type RuleFaultName = Exclude<FaultName, ChaosFaultName | DataFaultName>;
const ruleFaults = () => listFaults().filter((f) => f.kind === 'rule');

/** What each fault must visibly change; the normal behaviour is covered by the other test files. */
const PROOFS: Record<RuleFaultName, (w: World) => Promise<void>> = {
  'consent-status-not-awaiting': async ({ tpp }) => {
    const res = await tpp.api('A', 'POST', '/account-access-consents', { token: await tpp.cc('accounts'), body: aisBody() });
    assert.equal(res.body.Data.Status, 'Authorised');
  },
  'authorisation-alters-consent': async (w) => {
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic'] }));
    assert.equal((await w.tpp.api('A', 'GET', '/accounts/alice-current/balances', { token })).status, 200);
  },
  'consent-reads-back-changed': async (w) => {
    const body = aisBody();
    const { id, token } = await w.ais(body);
    const read = await w.tpp.api('A', 'GET', `/account-access-consents/${id}`, { token: await w.tpp.cc('accounts') });
    assert.equal(read.status, 200);
    assert.notEqual(read.body.Data.ExpirationDateTime, body.Data.ExpirationDateTime);
    assert.notEqual(read.body.Data.TransactionFromDateTime, body.Data.TransactionFromDateTime);
    assert.equal((await w.tpp.api('A', 'GET', '/accounts', { token })).status, 200, 'access itself is unchanged');
  },
  'partial-grant': async (w) => {
    const { token } = await w.ais();
    assert.equal((await w.tpp.api('A', 'GET', '/accounts/alice-current/balances', { token })).status, 403);
  },
  'unselected-accounts': async (w) => {
    const { token } = await w.ais(aisBody(), ['alice-current']);
    assert.equal((await w.tpp.api('A', 'GET', '/accounts', { token })).body.Data.Account.length, 3);
    assert.equal((await w.tpp.api('A', 'GET', '/accounts/alice-savings/balances', { token })).status, 200);
  },
  'no-token-data-access': async (w) => {
    await w.ais();
    assert.equal((await w.tpp.api('A', 'GET', '/accounts')).status, 200);
  },
  'client-credentials-data-access': async (w) => {
    await w.ais();
    assert.equal((await w.tpp.api('A', 'GET', '/accounts', { token: await w.tpp.cc('accounts') })).status, 200);
  },
  'transactions-outside-period': async (w) => {
    const { token } = await w.ais(aisBody({ fromDaysAgo: 100, toDaysAgo: 30 }));
    const list = (await w.tpp.api('A', 'GET', '/accounts/alice-current/transactions', { token })).body.Data.Transaction;
    assert.ok(list.some((t: any) => Date.parse(t.BookingDateTime) > Date.now() - 30 * 86_400_000));
  },
  'expired-consent-access': async (w) => {
    const { token } = await w.ais(aisBody({ expiresInMs: HOUR }));
    w.advance(2 * HOUR);
    assert.equal((await w.tpp.api('A', 'GET', '/accounts', { token })).status, 200);
  },
  'permission-not-enforced': async (w) => {
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic'] }));
    assert.equal((await w.tpp.api('A', 'GET', '/accounts/alice-current/balances', { token })).status, 200);
    assert.equal((await w.tpp.api('A', 'GET', '/accounts/alice-current/transactions', { token })).status, 200);
  },
  'account-field-missing': async (w) => {
    const { token } = await w.ais();
    assert.equal((await w.tpp.api('A', 'GET', '/accounts', { token })).body.Data.Account[0].Currency, undefined);
  },
  'accounts-not-array': async (w) => {
    const { token } = await w.ais();
    const account = (await w.tpp.api('A', 'GET', '/accounts', { token })).body.Data.Account;
    assert.ok(account && typeof account === 'object' && !Array.isArray(account) && typeof account.AccountId === 'string');
  },
  'currency-lowercase': async (w) => {
    const { token } = await w.ais();
    assert.match((await w.tpp.api('A', 'GET', '/accounts', { token })).body.Data.Account[0].Currency, /^[a-z]{3}$/);
  },
  'deleted-consent-opens-data': async (w) => {
    const { id, token } = await w.ais();
    const cc = await w.tpp.cc('accounts');
    assert.equal((await w.tpp.api('A', 'DELETE', `/account-access-consents/${id}`, { token: cc })).status, 204);
    assert.equal((await w.tpp.api('A', 'GET', `/account-access-consents/${id}`, { token: cc })).status, 400);
    assert.equal((await w.tpp.api('A', 'GET', '/accounts', { token })).status, 200);
  },
  'funds-consent-without-debtor': async ({ tpp }) => {
    assert.equal((await tpp.api('A', 'POST', '/funds-confirmation-consents', { token: await tpp.cc('fundsconfirmations'), body: { Data: {} } })).status, 201);
  },
  'funds-unauthorised-consent': async ({ tpp }) => {
    const cc = await tpp.cc('fundsconfirmations');
    const created = await tpp.api('A', 'POST', '/funds-confirmation-consents', { token: cc, body: cofBody(JOINT) });
    const res = await tpp.api('A', 'POST', '/funds-confirmations', { token: cc, body: fundsBody(created.body.Data.ConsentId, '1.00') });
    assert.equal(res.status, 201);
  },
  'funds-consent-mismatch': async (w) => {
    const first = await w.cof();
    const second = await w.cof();
    assert.equal((await w.tpp.api('A', 'POST', '/funds-confirmations', { token: first.token, body: fundsBody(second.id, '1.00') })).status, 201);
  },
  'funds-balance-disclosed': async (w) => {
    const { id, token } = await w.cof();
    const res = await w.tpp.api('A', 'POST', '/funds-confirmations', { token, body: fundsBody(id, '1.00') });
    assert.ok(res.text.includes('350.00'));
  },
  'funds-answer-wrong': async (w) => {
    const { id, token } = await w.cof();
    assert.equal((await w.tpp.api('A', 'POST', '/funds-confirmations', { token, body: fundsBody(id, '9999.00') })).body.Data.FundsAvailable, true);
  },
  'expired-funds-consent-confirms': async (w) => {
    const { id, token } = await w.cof(HOUR);
    w.advance(2 * HOUR);
    assert.equal((await w.tpp.api('A', 'POST', '/funds-confirmations', { token, body: fundsBody(id, '1.00') })).status, 201);
  },
  'deleted-funds-consent-confirms': async (w) => {
    const { id, token } = await w.cof();
    assert.equal((await w.tpp.api('A', 'DELETE', `/funds-confirmation-consents/${id}`, { token: await w.tpp.cc('fundsconfirmations') })).status, 204);
    assert.equal((await w.tpp.api('A', 'POST', '/funds-confirmations', { token, body: fundsBody(id, '1.00') })).status, 201);
  },
  'funds-consent-reads-awaiting': async (w) => {
    const { id } = await w.cof();
    const read = await w.tpp.api('A', 'GET', `/funds-confirmation-consents/${id}`, { token: await w.tpp.cc('fundsconfirmations') });
    assert.equal(read.body.Data.Status, 'AwaitingAuthorisation');
  },
  'funds-consent-any-scheme': async ({ tpp }) => {
    const body = cofBody(JOINT);
    body.Data.DebtorAccount.SchemeName = 'TestingAnInvalidSchemeName';
    assert.equal((await tpp.api('A', 'POST', '/funds-confirmation-consents', { token: await tpp.cc('fundsconfirmations'), body })).status, 201);
  },
  'funds-consent-fraction-refused': async ({ tpp }) => {
    const body = { Data: { ...cofBody(JOINT).Data, ExpirationDateTime: new Date(Date.now() + 86_400_000).toISOString() } };
    const res = await tpp.api('A', 'POST', '/funds-confirmation-consents', { token: await tpp.cc('fundsconfirmations'), body });
    assert.equal(res.status, 400);
  },
  'funds-consent-unknown-404': async ({ tpp }) => {
    assert.equal((await tpp.api('A', 'DELETE', '/funds-confirmation-consents/42', { token: await tpp.cc('fundsconfirmations') })).status, 404);
  },
  'debtor-not-asked': async (w) => {
    const cc = await w.tpp.cc('payments');
    const created = await w.tpp.api('A', 'POST', '/domestic-payments', { token: cc, body: paymentBody(), headers: { 'x-idempotency-key': 'k1' } });
    let asked = -1;
    await w.tpp.authorise(w.browser, created.body.Data.ConsentId, 'payments', { onConsentPage: async (page) => void (asked = (await page.$$('[data-testid=debtor-option]')).length) });
    assert.equal(asked, 0);
    const read = await w.tpp.api('A', 'GET', `/domestic-payments/${created.body.Data.ConsentId}`, { token: cc });
    assert.equal(read.body.Data.Debtor.Identification, '40400411290112');
  },
  'payment-status-unreadable': async ({ tpp }) => {
    const cc = await tpp.cc('payments');
    const created = await tpp.api('A', 'POST', '/domestic-payments', { token: cc, body: paymentBody(), headers: { 'x-idempotency-key': 'k1' } });
    assert.equal((await tpp.api('A', 'GET', `/domestic-payments/${created.body.Data.ConsentId}/status`, { token: cc })).status, 500);
  },
  'consent-not-consumed': async (w) => {
    const { id, token, order } = await submittable(w);
    assert.equal((await w.tpp.api('A', 'POST', '/domestic-payments', { token, body: order, headers: { 'x-idempotency-key': 'o1' } })).status, 201);
    assert.equal((await w.tpp.api('A', 'GET', `/domestic-payments/${id}`, { token: await w.tpp.cc('payments') })).body.Data.Status, 'Authorised');
  },
  'payment-submitted-twice': async (w) => {
    const { token, order } = await submittable(w);
    const first = await w.tpp.api('A', 'POST', '/domestic-payments', { token, body: order, headers: { 'x-idempotency-key': 'o1' } });
    const second = await w.tpp.api('A', 'POST', '/domestic-payments', { token, body: order, headers: { 'x-idempotency-key': 'o2' } });
    assert.equal(second.status, 201);
    assert.notEqual(second.body.Data.DomesticPaymentId, first.body.Data.DomesticPaymentId);
  },
  'payment-funds-unauthorised': async ({ tpp }) => {
    const cc = await tpp.cc('payments');
    const created = await tpp.api('A', 'POST', '/domestic-payments', { token: cc, body: paymentBody(), headers: { 'x-idempotency-key': 'k1' } });
    assert.equal((await tpp.api('A', 'GET', `/domestic-payments/${created.body.Data.ConsentId}/funds-confirmation`, { token: cc })).status, 200);
  },
  'unsigned-payment-responses': async ({ tpp }) => {
    const created = await tpp.api('A', 'POST', '/domestic-payments', { token: await tpp.cc('payments'), body: paymentBody(), headers: { 'x-idempotency-key': 'k1' } });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('x-jws-signature'), null);
  },
  'bad-response-signature': async ({ tpp, sb }) => {
    const created = await tpp.api('A', 'POST', '/domestic-payments', { token: await tpp.cc('payments'), body: paymentBody(), headers: { 'x-idempotency-key': 'k1' } });
    const [head, , signature] = created.headers.get('x-jws-signature')!.split('.');
    const { flattenedVerify, createRemoteJWKSet } = await import('jose');
    const ob = 'http://openbanking.org.uk/';
    await assert.rejects(flattenedVerify({ protected: head!, payload: Buffer.from(created.text).toString('base64url'), signature: signature! },
      createRemoteJWKSet(new URL(sb.jwksUri)), { crit: { [`${ob}iat`]: true, [`${ob}iss`]: true, [`${ob}tan`]: true } }));
  },
  'unsigned-requests-accepted': async ({ tpp }) => {
    const r = await tpp.api('A', 'POST', '/domestic-payments', { token: await tpp.cc('payments'), body: paymentBody(), headers: { 'x-idempotency-key': 'k1' }, sign: false });
    assert.equal(r.status, 201);
  },
  // The suite's OB-301-DOP-100110: a well-formed signature without its iss claim (UK layout).
  'signature-iss-claim-ignored': async (w) => {
    const ob = 'http://openbanking.org.uk/';
    const text = JSON.stringify(paymentBody());
    const header = { alg: 'PS256', kid: w.sb.tppSigning.kid, [`${ob}iat`]: Math.floor(Date.now() / 1000), [`${ob}tan`]: 'openbanking.org.uk', crit: [`${ob}iat`, `${ob}tan`] };
    const res = await undiciFetch(`${w.sb.issuer}/open-banking/v3.1/pisp/domestic-payment-consents`, {
      method: 'POST', body: text, dispatcher: w.tpp.dispatcher,
      headers: { authorization: `Bearer ${await w.tpp.cc('payments')}`, 'content-type': 'application/json', 'x-idempotency-key': 'iss-1', 'x-jws-signature': await tppSignature(w.sb, text, { header }) },
    });
    assert.equal(res.status, 201, await res.text());
  },
  'intent-not-bound': async (w) => {
    const cc = await w.tpp.cc('accounts');
    const asked = await w.tpp.api('A', 'POST', '/account-access-consents', { token: cc, body: aisBody({ permissions: ['ReadAccountsBasic'] }) });
    await w.tpp.api('A', 'POST', '/account-access-consents', { token: cc, body: aisBody() });
    const result = await w.tpp.authorise(w.browser, asked.body.Data.ConsentId, 'accounts');
    assert.equal(result.tokens?.claims()?.openbanking_intent_id, undefined);
    assert.equal((await w.tpp.api('A', 'GET', '/accounts/alice-current/balances', { token: result.tokens!.access_token })).status, 200, 'the token serves the latest consent');
  },
  'rejected-consent-token': async ({ tpp, browser }) => {
    const created = await tpp.api('A', 'POST', '/account-access-consents', { token: await tpp.cc('accounts'), body: aisBody() });
    const result = await tpp.authorise(browser, created.body.Data.ConsentId, 'accounts', { decision: 'reject' });
    assert.equal(result.error, undefined);
    assert.ok(result.tokens?.access_token);
  },
  'request-object-none-accepted': async ({ tpp }) => {
    const created = await tpp.api('A', 'POST', '/account-access-consents', { token: await tpp.cc('accounts'), body: aisBody() });
    assert.equal((await tpp.requestObject(created.body.Data.ConsentId, 'accounts', 'none')).went, 'login');
  },
  'request-object-exp-not-required': async ({ tpp }) => {
    const created = await tpp.api('A', 'POST', '/account-access-consents', { token: await tpp.cc('accounts'), body: aisBody() });
    assert.equal((await tpp.requestObject(created.body.Data.ConsentId, 'accounts', 'no-exp')).went, 'login');
    assert.equal((await tpp.requestObject(created.body.Data.ConsentId, 'accounts', 'expired')).went, 'error', 'only exp\'s absence is let through');
  },
  'registration-without-ssa-accepted': async ({ sb }) => {
    const res = await fetch(`${sb.issuer}/reg`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [sb.clients[0].redirectUri], grant_types: ['client_credentials'], response_types: [], token_endpoint_auth_method: 'client_secret_basic' }),
    });
    assert.equal(res.status, 201, await res.clone().text());
    assert.ok((await res.json() as { client_secret?: string }).client_secret);
  },
  'par-without-client-auth-accepted': async ({ sb, tpp }) => {
    const consent = (await tpp.api('A', 'POST', '/account-access-consents', { token: await tpp.cc('accounts'), body: aisBody() })).body.Data.ConsentId;
    const { url } = await tpp.authorizationUrl(consent, 'accounts');
    const res = await fetch(`${sb.issuer}/request`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: url.searchParams.toString() });
    assert.equal(res.status, 201, await res.clone().text());
    assert.match((await res.json() as { request_uri: string }).request_uri, /^urn:ietf:params:oauth:request_uri:/);
  },
  'pkce-not-required': async ({ tpp }) => {
    const consent = (await tpp.api('A', 'POST', '/account-access-consents', { token: await tpp.cc('accounts'), body: aisBody() })).body.Data.ConsentId;
    const { url } = await tpp.authorizationUrl(consent, 'accounts');
    url.searchParams.delete('code_challenge');
    url.searchParams.delete('code_challenge_method');
    const res = await fetch(url, { redirect: 'manual' });
    assert.match(res.headers.get('location') ?? '', /^\/interaction\//, 'a request without PKCE goes on to the login page');
  },
  'registration-managed-without-token': async ({ sb }) => {
    const profile = await profileFromObject(sb.profile(), { source: 'sandbox', env: {} });
    const http = httpFromProfile(profile);
    try {
      const reg = registrationFrom(await sendRegistration(http, `${sb.issuer}/reg`, await signRegistration(profile, registrationClaims(profile, sb.issuer))));
      const res = await fetch(reg.registrationClientUri!);
      assert.equal(res.status, 200, 'read without the registration access token');
      assert.equal((await res.json() as { client_id: string }).client_id, reg.clientId);
    } finally {
      await http.close();
    }
  },
  'create-200': async ({ tpp }) => {
    assert.equal((await tpp.api('A', 'POST', '/account-access-consents', { token: await tpp.cc('accounts'), body: aisBody() })).status, 200);
  },
  'error-body-not-ob': async ({ tpp }) => {
    const res = await tpp.api('A', 'POST', '/account-access-consents', { token: await tpp.cc('accounts'), body: {} });
    assert.equal(res.status, 400);
    assert.equal(res.body.Errors, undefined);
    assert.equal(res.body.Code, undefined);
  },
  'interaction-id-not-echoed': async ({ tpp }) => {
    const res = await tpp.api('A', 'GET', '/accounts', { headers: { 'x-fapi-interaction-id': 'tpp-42' } });
    assert.notEqual(res.headers.get('x-fapi-interaction-id'), 'tpp-42');
  },
  // UK Read/Write v3.1.11's account information, served only in the UK layout (src/sandbox/obie/ais-uk.ts).
  'uk-resource-permission-not-enforced': async (w) => {
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic'] }));
    assert.equal((await ukGet(w, '/direct-debits', token)).status, 200);
  },
  'uk-missing-permission-401': async (w) => {
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic'] }));
    assert.equal((await ukGet(w, '/direct-debits', token)).status, 401);
  },
  'basic-shows-account-detail': async (w) => {
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic'] }));
    const account = (await ukGet(w, '/accounts', token)).body.Data.Account[0];
    assert.ok(account.Account && account.Servicer, JSON.stringify(account));
  },
  'basic-shows-transaction-detail': async (w) => {
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic', 'ReadTransactionsBasic', 'ReadTransactionsCredits', 'ReadTransactionsDebits'] }));
    const list = (await ukGet(w, '/accounts/alice-current/transactions', token)).body.Data.Transaction;
    assert.ok(list.length && list.every((t: any) => t.TransactionInformation && t.Balance));
  },
  'basic-shows-beneficiary-detail': async (w) => {
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic', 'ReadBeneficiariesBasic'] }));
    assert.ok((await ukGet(w, '/accounts/alice-current/beneficiaries', token)).body.Data.Beneficiary[0].CreditorAccount);
  },
  'basic-shows-statement-amounts': async (w) => {
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic', 'ReadStatementsBasic'] }));
    const list = (await ukGet(w, '/statements', token)).body.Data.Statement;
    assert.ok(list.length && list.every((st: any) => st.StatementAmount));
  },
  'pan-unmasked': async (w) => {
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic', 'ReadTransactionsBasic', 'ReadTransactionsCredits', 'ReadTransactionsDebits'] }));
    const cards = (await ukGet(w, '/accounts/alice-current/transactions', token)).body.Data.Transaction.filter((t: any) => t.CardInstrument);
    assert.ok(cards.length && cards.every((t: any) => /^\d{16}$/.test(t.CardInstrument.Identification)), 'the card number comes in the clear without ReadPAN');
  },
  'statements-straddle-period': async (w) => {
    const from = Date.now() - 40 * 86_400_000;
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic', 'ReadStatementsBasic'], fromDaysAgo: 40 }));
    const list = (await ukGet(w, '/statements', token)).body.Data.Statement;
    assert.ok(list.length && list.some((st: any) => Date.parse(st.StartDateTime) < from), 'a statement begun before the consent\'s period is shown');
  },
  'statement-transactions-outside-period': async (w) => {
    const from = Date.now() - 100 * 86_400_000;
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic', 'ReadStatementsBasic', 'ReadTransactionsBasic', 'ReadTransactionsCredits', 'ReadTransactionsDebits'], fromDaysAgo: 100 }));
    const id = (await ukGet(w, '/accounts/alice-current/statements', token)).body.Data.Statement[0].StatementId;
    const list = (await ukGet(w, `/accounts/alice-current/statements/${id}/transactions`, token)).body.Data.Transaction;
    assert.ok(list.some((t: any) => Date.parse(t.BookingDateTime) < from), 'transactions booked before the consent\'s period');
  },
  'statement-file-empty': async (w) => {
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic', 'ReadStatementsDetail'], fromDaysAgo: 100 }));
    const id = (await ukGet(w, '/accounts/alice-current/statements', token)).body.Data.Statement[0].StatementId;
    const res = await fetch(`${w.sb.issuer}/open-banking/v3.1/aisp/accounts/alice-current/statements/${id}/file`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200);
    assert.equal((await res.arrayBuffer()).byteLength, 0);
  },
  'basic-shows-payee-detail': async (w) => {
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic', 'ReadStandingOrdersBasic'] }));
    const res = await ukGet(w, '/standing-orders', token);
    assert.ok(res.body.Data.StandingOrder[0].CreditorAccount);
  },
  'statements-outside-period': async (w) => {
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic', 'ReadStatementsBasic'], fromDaysAgo: 40 }));
    assert.equal((await ukGet(w, '/statements', token)).body.Data.Statement.length, 12, 'every monthly statement of the year, not the two the last 40 days overlap');
  },
  'bulk-unselected-accounts': async (w) => {
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic', 'ReadProducts'] }), ['alice-current']);
    assert.equal((await ukGet(w, '/products', token)).body.Data.Product.length, 3);
  },
  'standing-order-frequency-free-text': async (w) => {
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic', 'ReadStandingOrdersBasic'] }));
    assert.equal((await ukGet(w, '/standing-orders', token)).body.Data.StandingOrder[0].Frequency, 'Monthly');
  },
  'uk-reads-without-token': async (w) => {
    await w.ais(aisBody({ permissions: ['ReadAccountsBasic', 'ReadBalances'] }));
    assert.equal((await ukGet(w, '/balances', null)).status, 200);
  },
  'foreign-account-empty-list': async (w) => {
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic', 'ReadDirectDebits'] }));
    const res = await ukGet(w, '/accounts/foobar/direct-debits', token);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.Data.DirectDebit, []);
  },
  'undefined-subresource-answered': async (w) => {
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic', 'ReadDirectDebits'] }));
    assert.equal((await ukGet(w, '/accounts/alice-current/direct-debits/foobar', token)).status, 200);
  },
  'uk-reads-interaction-id-not-echoed': async (w) => {
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic', 'ReadDirectDebits'] }));
    const res = await fetch(`${w.sb.issuer}/open-banking/v3.1/aisp/direct-debits`, { headers: { authorization: `Bearer ${token}`, 'x-fapi-interaction-id': 'tpp-42' } });
    assert.equal(res.status, 200);
    assert.notEqual(res.headers.get('x-fapi-interaction-id'), 'tpp-42');
  },
  // The payment families of UK Read/Write v3.1.11 (UK layout only).
  ...PIS_FAMILY_PROOFS,
  // The payment families at UK Read/Write v4.0.
  ...V4_PIS_PROOFS,
  // The security profiles' flows (SEC-14, SEC-15), each in the sandbox set-up it bends.
  ...SECURITY_PROOFS,
  ...OIDF_PROOFS,
  // VRP (UK Read/Write v3.1.11, below /pisp): an authorised consent, then payments without the PSU.
  'vrp-consent-consumed': async (w) => {
    const v = await vrpConsent(w, { perPayment: '10.00', perDay: '100.00' });
    assert.equal((await v.pay('1.00')).status, 201);
    assert.equal((await v.pay('1.00')).status, 400, 'the consent was consumed by the first payment');
  },
  'vrp-reads-unsigned': async (w) => {
    const v = await vrpConsent(w, { perPayment: '10.00', perDay: '100.00' });
    const read = await v.client.getVrpConsent(v.id, { token: await w.tpp.cc('payments') });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.headers['x-jws-signature'], undefined);
  },
  'vrp-reads-latin1': async (w) => {
    const v = await vrpConsent(w, { perPayment: '10.00', perDay: '100.00' });
    const read = await v.client.getVrpConsent(v.id, { token: await w.tpp.cc('payments') });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.headers['content-type'], 'application/json; charset=iso-8859-1');
  },
  'vrp-deleted-consent-bare-400': async (w) => {
    const v = await vrpConsent(w, { perPayment: '10.00', perDay: '100.00' });
    const cc = await w.tpp.cc('payments');
    assert.equal((await v.client.deleteVrpConsent(v.id, { token: cc })).status, 204);
    const read = await v.client.getVrpConsent(v.id, { token: cc });
    assert.deepEqual([read.status, read.text], [400, '']);
  },
  'vrp-individual-limit-ignored': async (w) => {
    const v = await vrpConsent(w, { perPayment: '10.00', perDay: '100.00' });
    assert.equal((await v.pay('50.00')).status, 201);
  },
  'vrp-periodic-limit-ignored': async (w) => {
    const v = await vrpConsent(w, { perPayment: '10.00', perDay: '15.00' });
    assert.equal((await v.pay('10.00')).status, 201);
    assert.equal((await v.pay('10.00')).status, 201);
  },
  'vrp-validity-ignored': async (w) => {
    const v = await vrpConsent(w, { perPayment: '10.00', perDay: '100.00', validFrom: new Date(Date.now() + 24 * HOUR).toISOString() });
    assert.equal((await v.pay('1.00')).status, 201);
  },
  'vrp-validity-end-ignored': async (w) => {
    const v = await vrpConsent(w, { perPayment: '10.00', perDay: '100.00', validTo: new Date(Date.now() + HOUR).toISOString() });
    w.advance(2 * HOUR);
    assert.equal((await v.pay('1.00')).status, 201, 'paid after ValidToDateTime');
  },
  'vrp-revoked-pays': async (w) => {
    const v = await vrpConsent(w, { perPayment: '10.00', perDay: '100.00' });
    assert.equal((await v.client.deleteVrpConsent(v.id, { token: await w.tpp.cc('payments') })).status, 204);
    assert.equal((await v.pay('1.00')).status, 201);
  },
  'vrp-periodic-limits-optional': async (w) => {
    const profile = await profileFromObject(w.sb.profile('uk-3.1'), { source: 'sandbox', env: {} });
    const client = new TppClient(profile, 'A', httpFromProfile(profile));
    const body = buildVrpConsent({
      creditor: { schemeName: 'UK.OBIE.SortCodeAccountNumber', identification: '08080021325698', name: 'ACME Inc' },
      maximumIndividualAmount: { amount: '10.00', currency: 'GBP' }, periodicLimits: [{ periodType: 'Day', periodAlignment: 'Calendar', amount: '20.00', currency: 'GBP' }],
    });
    delete (body.Data.ControlParameters as Record<string, unknown>).PeriodicLimits;
    const res = await client.createVrpConsent(body, { token: await w.tpp.cc('payments') });
    assert.equal(res.status, 201, res.text);
  },
  'vrp-unsigned-payment-accepted': async (w) => {
    const v = await vrpConsent(w, { perPayment: '10.00', perDay: '100.00' });
    const res = await v.client.createVrp(v.payment('1.00'), { token: v.token, signature: false });
    assert.equal(res.status, 201, res.text);
  },
  'vrp-signature-presence-only': async (w) => {
    const v = await vrpConsent(w, { perPayment: '10.00', perDay: '100.00' });
    const signature = await tppSignature(w.sb, JSON.stringify(v.payment('2.00')));
    const res = await v.client.createVrp(v.payment('1.00'), { token: v.token, signature });
    assert.equal(res.status, 201, res.text);
    assert.equal((await v.client.createVrp(v.payment('1.00'), { token: v.token, signature: false })).status, 400, 'a payment without one is still refused');
  },
  'vrp-idempotency-ignored': async (w) => {
    const v = await vrpConsent(w, { perPayment: '10.00', perDay: '100.00' });
    const body = v.payment('1.00');
    const first = await v.client.createVrp(body, { token: v.token, idempotencyKey: 'vrp-same-key' });
    const second = await v.client.createVrp(body, { token: v.token, idempotencyKey: 'vrp-same-key' });
    assert.equal(first.status, 201, first.text);
    assert.equal(second.status, 201, second.text);
    assert.notEqual(first.body.Data.DomesticVRPId, second.body.Data.DomesticVRPId, 'the repeated request paid again');
  },
  'vrp-initiation-unchecked': async (w) => {
    const v = await vrpConsent(w, { perPayment: '10.00', perDay: '100.00' });
    const body = v.payment('1.00');
    const other = { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '40400411290127', Name: 'Someone Else Ltd' };
    body.Data.Initiation.CreditorAccount = other;
    body.Data.Instruction.CreditorAccount = other;
    const res = await v.client.createVrp(body, { token: v.token });
    assert.equal(res.status, 201, res.text);
  },
  'vrp-funds-balance-disclosed': async (w) => {
    const v = await vrpConsent(w, { perPayment: '10.00', perDay: '100.00' });
    const res = await v.client.confirmVrpFunds(v.id, buildVrpFundsConfirmation({ consentId: v.id, amount: '1.00', currency: 'GBP' }), { token: v.token });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.Data.FundsAvailableResult.AvailableBalance.Amount, '350.00', 'the joint account\'s available balance');
  },
  'vrp-funds-boolean': async (w) => {
    const v = await vrpConsent(w, { perPayment: '10.00', perDay: '100.00' });
    const res = await v.client.confirmVrpFunds(v.id, buildVrpFundsConfirmation({ consentId: v.id, amount: '1.00', currency: 'GBP' }), { token: v.token });
    assert.equal(res.status, 201, res.text);
    assert.equal(typeof res.body.Data.FundsAvailableResult.FundsAvailable, 'boolean');
  },

  // UK Read/Write v4.0 (under {issuer}/open-banking/v4.0): each keeps one v3.1.11 spelling.
  'v4-consent-status-v3-name': async ({ sb, tpp }) => {
    const res = await (await v4Client(sb)).createAccountAccessConsent(aisBody(), { token: await tpp.cc('accounts') });
    assert.equal(res.body.Data.Status, 'AwaitingAuthorisation');
  },
  'v4-payment-status-v3-name': async ({ sb, tpp }) => {
    const res = await (await v4Client(sb)).createPaymentConsent(paymentBody(), { token: await tpp.cc('payments') });
    assert.equal(res.body.Data.Status, 'AwaitingAuthorisation');
  },
  'v4-vrp-status-v3-name': async ({ sb, tpp }) => {
    const body = buildVrpConsent({
      creditor: { schemeName: 'UK.OBIE.SortCodeAccountNumber', identification: '08080021325698', name: 'ACME Inc' },
      maximumIndividualAmount: { amount: '10.00', currency: 'GBP' }, periodicLimits: [{ periodType: 'Day', periodAlignment: 'Calendar', amount: '20.00', currency: 'GBP' }], version: 'v4.0',
    });
    const res = await (await v4Client(sb)).createVrpConsent(body, { token: await tpp.cc('payments') });
    assert.equal(res.body.Data.Status, 'AwaitingAuthorisation');
  },
  'v4-account-type-v3': async (w) => {
    const { token } = await w.ais();
    const res = await (await v4Client(w.sb)).getAccount('alice-current', { token });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.Data.Account[0].AccountSubType, 'CurrentAccount');
    assert.equal(res.body.Data.Account[0].AccountTypeCode, undefined);
  },
  'v4-error-code-v3': async ({ sb, tpp }) => {
    const res = await (await v4Client(sb)).createAccountAccessConsent({ Data: {}, Risk: {} }, { token: await tpp.cc('accounts') });
    assert.equal(res.status, 400);
    assert.match(res.body.Errors[0].ErrorCode, /^UK\.OBIE\./);
  },
  'v4-funds-consent-status-v3-name': async ({ sb, tpp }) => {
    const res = await (await v4Client(sb)).createFundsConsent(cofBody(JOINT), { token: await tpp.cc('fundsconfirmations') });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.Data.Status, 'AwaitingAuthorisation');
  },
  'v4-balance-type-v3': async (w) => {
    const { token } = await w.ais();
    const res = await (await v4Client(w.sb)).listBalances({ token });
    assert.equal(res.status, 200, res.text);
    assert.ok(res.body.Data.Balance.every((b: any) => b.Type.length > 4), JSON.stringify(res.body.Data.Balance.map((b: any) => b.Type)));
  },
  'v4-transaction-status-v3': async (w) => {
    const { token } = await w.ais();
    const res = await (await v4Client(w.sb)).listTransactions({ token });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.Data.Transaction[0].Status, 'Booked');
  },
  'v4-standing-order-v3': async (w) => {
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic', 'ReadStandingOrdersBasic'] }));
    const order = (await (await v4Client(w.sb)).listStandingOrders({ token })).body.Data.StandingOrder[0];
    assert.equal(order.StandingOrderStatusCode, 'Active');
    assert.equal(typeof order.Frequency, 'string');
    assert.equal(order.MandateRelatedInformation, undefined);
  },
  'v4-direct-debit-v3': async (w) => {
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic', 'ReadDirectDebits'] }));
    const debit = (await (await v4Client(w.sb)).listDirectDebits({ token })).body.Data.DirectDebit[0];
    assert.equal(debit.DirectDebitStatusCode, 'Active');
    assert.equal(typeof debit.MandateIdentification, 'string');
  },
  'v4-address-type-v3': async (w) => {
    const { token } = await w.ais(aisBody({ permissions: ['ReadAccountsBasic', 'ReadPartyPSU'] }));
    const res = await (await v4Client(w.sb)).getParty({ token });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.Data.Party.Address[0].AddressType, 'Residential');
  },
};

// Three proofs at a time: each starts a sandbox of its own (its own clock too) and shares only the
// browser, in a context of its own; one proof mostly waits on its sandbox and its page, so one at a
// time left most of a core idle (`node scripts/test.mjs test/sandbox/faults.test.ts` under
// scripts/machine-cpu.sh: 18.5 s of wall one at a time, 16.2 s three at a time, the same CPU).
describe('sandbox faults', { concurrency: 3 }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  test('the fault table is docs/rules.md\'s, and every fault has a proof here', () => {
    const rules = readFileSync(new URL('../../docs/rules.md', import.meta.url), 'utf8');
    const documented = [...rules.split('## Sandbox faults')[1].matchAll(/^\| ([a-z0-9-]+) \| ([A-Z]+-\d+) \| (.+) \|$/gm)].map((m) => ({ name: m[1], rule: m[2], description: m[3] }));
    assert.deepEqual(ruleFaults().map(({ name, rule, description }) => ({ name, rule, description })), documented);
    assert.deepEqual(Object.keys(PROOFS).sort(), ruleFaults().map((f) => f.name).sort());
  });

  test('an unknown fault is refused with a usage error naming the valid ones', async () => {
    await assert.rejects(startSandbox({ faults: ['no-such-fault'] }), (error: unknown) =>
      error instanceof UnknownFaultError && error.exitCode === 2 && error.message.includes('create-200'));
  });

  for (const { name, rule, security } of ruleFaults()) {
    test(`${name} breaks ${rule}`, async () => {
      let clock = Date.now();
      // A fault of a security profile's flow shows only where the authorisation server runs that profile.
      const sb = await startSandbox({ faults: [name], clock: () => clock, ...(security ? { security: security as never } : {}) });
      try {
        const tpp = await Tpp.connect(sb);
        const world: World = {
          sb, tpp, browser,
          advance: (ms) => void (clock += ms),
          ais: async (body = aisBody(), accounts) => {
            const created = await tpp.api('A', 'POST', '/account-access-consents', { token: await tpp.cc('accounts'), body });
            const result = await tpp.authorise(browser, created.body.Data.ConsentId, 'accounts', { accounts });
            return { id: created.body.Data.ConsentId, token: result.tokens!.access_token };
          },
          cof: async (expiresInMs) => {
            const created = await tpp.api('A', 'POST', '/funds-confirmation-consents', { token: await tpp.cc('fundsconfirmations'), body: cofBody(JOINT, expiresInMs) });
            const result = await tpp.authorise(browser, created.body.Data.ConsentId, 'fundsconfirmations');
            return { id: created.body.Data.ConsentId, token: result.tokens!.access_token };
          },
        };
        await PROOFS[name as RuleFaultName](world);
      } finally {
        await sb.stop();
      }
    });
  }
});
