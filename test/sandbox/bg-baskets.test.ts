/**
 * The NextGenPSD2 sandbox's signing baskets (issue 28): POST /v1/signing-baskets of a consent and a
 * payment not yet authorised (201, the link to the PSU's SCA), read back with its members, one
 * redirect SCA of the basket on the bank's pages (forms posted by fetch: no browser) after which
 * the basket reads ACTC, the consent valid and the payment ACTC; a member unknown (400
 * RESOURCE_UNKNOWN) or already authorised (409 REFERENCE_STATUS_INVALID) refused; DELETE only
 * before the authorisation; the authorisation sub-resources. Every answer is valid against the
 * OFFICIAL 1.3.12 file and the dialect's judge finds nothing in it; each BG-60 fault shows.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { listBgFaults } from '../../src/sandbox/berlin-group/faults.ts';
import { bgSkip, officialValidator } from '../dialects/berlin-group-official.ts';
import { assertValid, bgCall } from '../helpers/bg-sandbox.ts';

type Json = any;
let sb: Sandbox;
let faulty: Sandbox;
const FAULTS = listBgFaults().filter((f) => f.rule === 'BG-60').map((f) => f.name);

before(async () => {
  // Compiled first: compiling the official file takes seconds, in which the sandbox would close the idle keep-alive socket the next request reuses.
  if (!bgSkip) for (const name of ['signingBasketResponse-201', 'signingBasketResponse-200', 'signingBasketStatusResponse-200', 'startScaprocessResponse', 'authorisations', 'scaStatusResponse', 'signingBasket'] as const) officialValidator(name);
  [sb, faulty] = await Promise.all([
    startSandbox({ dialect: 'berlin-group', quiet: true }),
    startSandbox({ dialect: 'berlin-group', quiet: true, faults: FAULTS }),
  ]);
});
after(async () => {
  await Promise.all([sb?.stop(), faulty?.stop()]);
});

const call = bgCall;

const valid = assertValid;

const redirect = (bank: Sandbox) => ({ 'TPP-Redirect-URI': bank.clients[0].redirectUri, 'TPP-Redirect-Preferred': 'true' });
const iban = (bank: Sandbox) => (bank.psus[0]!.accounts[0] as { iban?: string }).iban!;
const form = (url: string, fields: Record<string, string>) => fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });

/** A one-off consent to alice's first account and a payment of 1.00 from it, neither authorised. */
async function members(bank: Sandbox): Promise<{ consentId: string; paymentId: string }> {
  const consent = await call('POST', `${bank.baseUrls.A}/v1/consents`, {
    headers: redirect(bank),
    body: { access: { accounts: [{ iban: iban(bank) }] }, recurringIndicator: false, validUntil: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10), frequencyPerDay: 1, combinedServiceIndicator: false },
  });
  assert.equal(consent.status, 201, JSON.stringify(consent.body));
  const payment = await call('POST', `${bank.baseUrls.A}/v1/payments/sepa-credit-transfers`, {
    headers: redirect(bank),
    body: { debtorAccount: { iban: iban(bank) }, instructedAmount: { currency: 'EUR', amount: '1.00' }, creditorAccount: { iban: 'DE02120300000000202051' }, creditorName: 'obtpp test creditor' },
  });
  assert.equal(payment.status, 201, JSON.stringify(payment.body));
  return { consentId: consent.body.consentId, paymentId: payment.body.paymentId };
}

const basket = (bank: Sandbox, body: Json, headers: Record<string, string> = redirect(bank)) => call('POST', `${bank.baseUrls.A}/v1/signing-baskets`, { headers, body });

/** The PSU (alice) logs in on the basket's scaRedirect page and decides. */
async function decide(scaRedirect: string, bank: Sandbox, decision: 'approve' | 'reject'): Promise<Response> {
  const alice = bank.psus[0]!;
  assert.equal((await form(`${scaRedirect}/login`, { username: alice.username, password: alice.password })).status, 303);
  return form(`${scaRedirect}/confirm`, { decision });
}

const read = async (bank: Sandbox, m: { consentId: string; paymentId: string }) => ({
  consent: (await call('GET', `${bank.baseUrls.A}/v1/consents/${m.consentId}/status`)).body.consentStatus,
  payment: (await call('GET', `${bank.baseUrls.A}/v1/payments/sepa-credit-transfers/${m.paymentId}/status`)).body.transactionStatus,
});

test('a basket of a consent and a payment: 201 with scaRedirect, read back, one SCA authorises both, then ACTC; no DELETE after it; no second basket of them', async () => {
  const m = await members(sb);
  const created = await basket(sb, { consentIds: [m.consentId], paymentIds: [m.paymentId] });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  valid('signingBasketResponse-201', created.body);
  assert.equal(created.body.transactionStatus, 'RCVD');
  assert.equal(created.headers.get('aspsp-sca-approach'), 'REDIRECT');
  const self = created.headers.get('location')!;
  assert.equal(self, created.body._links.self.href);
  const got = await call('GET', self);
  assert.equal(got.status, 200);
  valid('signingBasketResponse-200', got.body);
  assert.deepEqual([got.body.consents, got.body.payments], [[m.consentId], [m.paymentId]]);
  const list = await call('GET', `${self}/authorisations`);
  valid('authorisations', list.body);
  assert.equal(list.body.authorisationIds.length, 1);
  const sca = await call('GET', created.body._links.scaStatus.href);
  valid('scaStatusResponse', sca.body);
  assert.equal(sca.body.scaStatus, 'received');
  assert.deepEqual(await read(sb, m), { consent: 'received', payment: 'RCVD' });
  const back = await decide(created.body._links.scaRedirect.href, sb, 'approve');
  assert.equal(back.status, 303);
  assert.equal(back.headers.get('location'), sb.clients[0].redirectUri);
  assert.equal((await call('GET', created.body._links.scaStatus.href)).body.scaStatus, 'finalised');
  const status = await call('GET', `${self}/status`);
  valid('signingBasketStatusResponse-200', status.body);
  assert.equal(status.body.transactionStatus, 'ACTC');
  assert.deepEqual(await read(sb, m), { consent: 'valid', payment: 'ACTC' });
  const deleted = await call('DELETE', self);
  assert.equal(deleted.status, 409);
  assert.equal(deleted.body.tppMessages[0].code, 'STATUS_INVALID');
  const again = await basket(sb, { paymentIds: [m.paymentId] });
  assert.equal(again.status, 409);
  assert.equal(again.body.tppMessages[0].code, 'REFERENCE_STATUS_INVALID');
});

test('a basket the PSU rejects rejects its members; DELETE before the authorisation removes the basket and leaves its members; refusals', async () => {
  const m = await members(sb);
  const rejected = await basket(sb, { consentIds: [m.consentId], paymentIds: [m.paymentId] });
  assert.equal((await decide(rejected.body._links.scaRedirect.href, sb, 'reject')).status, 303);
  assert.equal((await call('GET', `${rejected.headers.get('location')}/status`)).body.transactionStatus, 'RJCT');
  assert.deepEqual(await read(sb, m), { consent: 'rejected', payment: 'RJCT' });
  const n = await members(sb);
  // Explicit start: the 201 links startAuthorisation; POST …/authorisations starts the redirect SCA.
  const explicit = await basket(sb, { paymentIds: [n.paymentId] }, { ...redirect(sb), 'TPP-Explicit-Authorisation-Preferred': 'true' });
  valid('signingBasketResponse-201', explicit.body);
  const started = await call('POST', explicit.body._links.startAuthorisation.href, { headers: redirect(sb) });
  assert.equal(started.status, 201, JSON.stringify(started.body));
  valid('startScaprocessResponse', started.body);
  const self = explicit.headers.get('location')!;
  assert.equal((await call('DELETE', self)).status, 204);
  assert.equal((await call('GET', self)).status, 404);
  assert.deepEqual(await read(sb, n), { consent: 'received', payment: 'RCVD' });
  const unknown = await basket(sb, { paymentIds: [n.paymentId, 'payment-never-made'] });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.tppMessages[0].code, 'RESOURCE_UNKNOWN');
  assert.equal((await basket(sb, {})).status, 400);
  assert.equal((await basket(sb, { paymentIds: [] })).status, 400);
  assert.equal((await basket(sb, { paymentIds: [n.paymentId] }, {})).status, 400, 'no TPP-Redirect-URI: this bank authorises baskets by redirect');
  assert.equal((await call('POST', `${sb.baseUrls.B}/v1/signing-baskets`, { headers: redirect(sb), body: { paymentIds: [n.paymentId] } })).status, 404, 'variant B has no payments');
});

test('the faults of BG-60: unknown and authorised members accepted, consents dropped from the read, payments not authorised, RCVD for ever, authorisations unlisted, DELETE after authorisation', async () => {
  assert.deepEqual(FAULTS.length, 7);
  const m = await members(faulty);
  const created = await basket(faulty, { consentIds: [m.consentId], paymentIds: [m.paymentId] });
  const self = created.headers.get('location')!;
  assert.equal((await call('GET', self)).body.consents, undefined);
  assert.equal((await decide(created.body._links.scaRedirect.href, faulty, 'approve')).status, 303);
  assert.equal((await call('GET', `${self}/status`)).body.transactionStatus, 'RCVD');
  assert.deepEqual((await call('GET', `${self}/authorisations`)).body, { authorisationIds: [] });
  assert.deepEqual(await read(faulty, m), { consent: 'valid', payment: 'RCVD' });
  assert.equal((await basket(faulty, { consentIds: [m.consentId] })).status, 201);
  assert.equal((await basket(faulty, { paymentIds: ['payment-never-made'] })).status, 201);
  assert.equal((await call('DELETE', self)).status, 204);
});
