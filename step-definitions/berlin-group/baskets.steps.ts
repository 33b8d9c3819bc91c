/**
 * The berlin-group scenarios of signing baskets (features/berlin-group/signing-baskets.feature):
 * POST /v1/signing-baskets of a consent and a payment not yet authorised, GET the basket and its
 * status, the PSU's one SCA of the basket (the profile's first approach of redirect, decoupled and
 * embedded: PUT …/authorisations/{authorisationId}), the members' statuses after it, DELETE
 * before and after the authorisation, and the refusal of members unknown or already authorised.
 */
import { randomUUID } from 'node:crypto';
import { Given, When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import type { ApiResult } from '../../src/client/operations.ts';
import { describeAnswer, expectStatus, quote, warn } from '../support/judge.ts';
import {
  authorisationIdOf, BASKET_AUTHORISED_STATUSES, basketIdOf, bgHeaders, buildPaymentInitiation, buildSigningBasket, consentIdOf, consentStatusOf, detailedAccess, errorCodesOf,
  linkOf, linksOf, paymentIdOf, TRANSACTION_STATUSES, transactionStatusOf,
} from '../../src/dialects/berlin-group/index.ts';
import { expectAuthorisationsListed, approachOf, expectBgError, expectBgSchema, expectScaLink, fullConsent, plain, postConsent, psuIp, sca, scaHeaders, consentRequest, type Approach, type ScaResource } from './support.ts';
import { judgeScaTrail } from './sca.steps.ts';
import { authorisationOps } from '../../src/session/berlin-group-authorisations.ts';

/** A SEPA account of another bank to pay (a valid German IBAN no PSU of any bank here holds). */
const CREDITOR_IBAN = 'DE02120300000000202051';
/** A payment the PSU authorised: anything past RCVD but a rejection or cancellation (ISO 20022). */
const AUTHORISED_PAYMENT = TRANSACTION_STATUSES.filter((s) => !['RCVD', 'RJCT', 'CANC', 'PDNG'].includes(s));

/** What the scenario keeps of its basket and members. */
interface Basket { consentId?: string; paymentId?: string; created?: ApiResult; id?: string; authorisationId?: string }
const baskets = new WeakMap<ConformanceWorld, Basket>();
const state = (world: ConformanceWorld): Basket => {
  let b = baskets.get(world);
  if (!b) baskets.set(world, (b = {}));
  return b;
};

/**
 * The approach of the basket's SCA (and its members' creation): the profile's first of redirect,
 * decoupled and embedded (a basket has no OAuth2 scope of its own). Not applicable, before any
 * set-up, to a bank without signing baskets (the profile's implements) or without such an approach.
 */
function basketApproach(world: ConformanceWorld): Approach {
  if (!world.client.supports('createSigningBasket')) throw world.client.unsupported('createSigningBasket');
  return approachOf(world, ['redirect', 'decoupled', 'embedded']);
}

/** The headers of every basket call: the PSU-IP-Address and those that ask for the basket's approach. */
function headers(world: ConformanceWorld): Record<string, string> {
  return { ...bgHeaders({ psuIpAddress: psuIp(world) }), ...scaHeaders(world, basketApproach(world)) };
}

/** The IBAN of the PSU's first account (from the run's consent to the PSU's accounts). */
async function firstIban(world: ConformanceWorld): Promise<{ iban: string; currency: string }> {
  const full = await fullConsent(world, { accountsOnly: true });
  const account = full.accounts.find((a) => a.iban);
  if (!account?.iban) throw world.blocked('AIS-11', 'the PSU\'s accounts carry no IBAN to name in a consent or pay from');
  return { iban: account.iban, currency: account.currency ?? 'EUR' };
}

/** A payment of 1.00 from the PSU's first account, not authorised. */
async function payment(world: ConformanceWorld): Promise<string> {
  const h = headers(world);
  const { iban, currency } = await firstIban(world);
  const body = buildPaymentInitiation({ debtor: { iban }, amount: '1.00', currency, creditor: { iban: CREDITOR_IBAN }, creditorName: 'obtpp test creditor', endToEndIdentification: world.uniqueRef('obtpp') });
  const r = await world.call('initiating the payment for the basket', (c) => c.createPaymentConsent(body, plain(world, h)));
  const id = paymentIdOf(r.body);
  if (r.status !== 201 || !id) throw world.blocked('PIS-01', `the bank did not initiate the payment: ${describeAnswer(r)}`);
  return id;
}

Given('a NextGenPSD2 consent and a NextGenPSD2 payment the PSU has not authorised yet', async function (this: ConformanceWorld) {
  headers(this);
  const { iban } = await firstIban(this);
  // One-off: authorising it expires none of the PSU's recurring consents (the run's own among them).
  const created = await postConsent(this, consentRequest(detailedAccess([{ iban }], {}), { recurringIndicator: false, frequencyPerDay: 1 }), basketApproach(this));
  const consentId = consentIdOf(created.body);
  if (created.status !== 201 || !consentId) throw this.blocked('AIS-01', `the bank did not create the consent: ${describeAnswer(created)}`);
  state(this).consentId = consentId;
  state(this).paymentId = await payment(this);
});

Given('a NextGenPSD2 payment the PSU has not authorised yet', async function (this: ConformanceWorld) {
  state(this).paymentId = await payment(this);
});

/** POST /v1/signing-baskets (`explicit`: the TPP prefers to start the basket's authorisation itself). */
async function create(world: ConformanceWorld, body: unknown, explicit = false): Promise<ApiResult> {
  const h = { ...headers(world), 'X-Request-ID': randomUUID(), ...(explicit ? { 'TPP-Explicit-Authorisation-Preferred': 'true' } : {}) };
  const r = await world.call('creating the signing basket', (c) => c.createSigningBasket(body, plain(world, h)));
  // Which members a bank takes together is its own (the file's REFERENCE_MIX_INVALID): nothing to judge then.
  if (r.status === 400 && errorCodesOf(r.body).includes('REFERENCE_MIX_INVALID')) throw world.blocked(undefined, `the bank does not take these members in one basket: ${describeAnswer(r)}`);
  return r;
}

function keep(world: ConformanceWorld, r: ApiResult): void {
  const b = state(world);
  b.created = r;
  b.id = basketIdOf(r.body);
}

When('the TPP puts the consent and the payment in a signing basket, preferring to start its authorisation itself', async function (this: ConformanceWorld) {
  const b = state(this);
  keep(this, await create(this, buildSigningBasket({ consentIds: [b.consentId!], paymentIds: [b.paymentId!] }), true));
});

When('the TPP puts the payment and a payment the bank never made in a signing basket', async function (this: ConformanceWorld) {
  keep(this, await create(this, buildSigningBasket({ paymentIds: [state(this).paymentId!, `obtpp-never-made-${randomUUID()}`] })));
});

When('the TPP puts the payment alone in a signing basket', async function (this: ConformanceWorld) {
  const r = await create(this, buildSigningBasket({ paymentIds: [state(this).paymentId!] }));
  keep(this, r);
  expectStatus(this, r, [201]);
  expectBgSchema(this, r, 'signingBasketResponse-201');
});

/** The basket the bank created (a scenario without one is not judged further). */
function theBasket(world: ConformanceWorld): { id: string; created: ApiResult } {
  const b = state(world);
  if (!b.created || !b.id) throw world.blocked(undefined, `the bank did not create the signing basket: ${b.created ? describeAnswer(b.created) : 'no answer'}`);
  return { id: b.id, created: b.created };
}

Then('the bank creates the signing basket: 201 with a valid {string} and a way to start the PSU\'s SCA', function (this: ConformanceWorld, schema: string) {
  const r = state(this).created!;
  expectStatus(this, r, [201]);
  expectBgSchema(this, r, schema as 'signingBasketResponse-201');
  if (!basketIdOf(r.body)) throw this.violation(`the 201 of POST /v1/signing-baskets carries no basketId: ${describeAnswer(r)}`);
  expectScaLink(this, r, basketApproach(this), 'signing basket');
});

Then('the signing basket reads back with the consent and the payment', async function (this: ConformanceWorld) {
  const { id } = theBasket(this);
  const b = state(this);
  const r = await this.call('reading the signing basket', (c) => c.getSigningBasket(id, plain(this, bgHeaders())));
  expectStatus(this, r, [200]);
  expectBgSchema(this, r, 'signingBasketResponse-200');
  const body = r.body as { consents?: unknown; payments?: unknown };
  const has = (list: unknown, id: string) => Array.isArray(list) && list.includes(id);
  if (!has(body.consents, b.consentId!) || !has(body.payments, b.paymentId!)) {
    throw this.violation(`the basket reads back consents ${quote(body.consents)} and payments ${quote(body.payments)}, not the consent ${quote(b.consentId)} and the payment ${quote(b.paymentId)} the TPP put in it`);
  }
});

When('the PSU authorises the signing basket', async function (this: ConformanceWorld) {
  const { id, created } = theBasket(this);
  let started = created;
  const approach = basketApproach(this);
  // An explicit start (a startAuthorisation link in the 201): the TPP starts the basket's authorisation, whose answer carries the scaRedirect or the update links.
  const start = Object.keys(linksOf(created.body)).find((l) => l.startsWith('startAuthorisation'));
  if (!linkOf(created.body, 'scaRedirect', created.exchange.url) && start) {
    // The embedded approach's start with the PSU's password, where the link says so.
    const body = approach === 'embedded' && start === 'startAuthorisationWithPsuAuthentication' ? { psuData: { password: this.ctx.profile.psu.password } } : {};
    started = await this.call('starting the signing basket\'s authorisation', (c) => authorisationOps(c, 'basket', id).start(body, plain(this, headers(this))));
    expectStatus(this, started, [201], 'POST /v1/signing-baskets/{basketId}/authorisations starts the basket\'s authorisation: expected 201');
    expectBgSchema(this, started, 'startScaprocessResponse');
    state(this).authorisationId = authorisationIdOf(started.body);
    if (!state(this).authorisationId) throw this.violation(`the start of the signing basket's authorisation carries no authorisationId: ${describeAnswer(started)}`);
  }
  // Decoupled and embedded: the same walk as a payment's, on the basket's authorisation sub-resource.
  if (approach !== 'redirect') {
    const walked: ScaResource = { id, created: started, approach };
    await sca(this, walked, { fn: 'pis', of: 'basket' });
    state(this).authorisationId ??= walked.trail?.authorisationId;
    // What the TPP followed of the basket's scaStatus, judged as SCA-01 judges a payment's.
    if (walked.trail) judgeScaTrail(this, walked.trail);
    return;
  }
  if (!linkOf(started.body, 'scaRedirect', started.exchange.url)) throw this.violation(`the bank gave no scaRedirect for the basket's SCA, which the TPP asked to take by redirect: ${describeAnswer(started)}`);
  await sca(this, { id, created: started, approach: 'redirect' }, { fn: 'pis' });
});

Then('the signing basket\'s authorisations are listed with the one the PSU authorised', async function (this: ConformanceWorld) {
  const { id, created } = theBasket(this);
  if (!this.client.supports('listSigningBasketAuthorisations')) return;
  // The one the TPP started, the one the decoupled or embedded walk followed, or the one the bank started itself (its scaStatus link).
  const linked = /authorisations\/([^/?#]+)\/?(?:[?#].*)?$/.exec(linkOf(created.body, 'scaStatus', created.exchange.url) ?? '')?.[1];
  const authorisationId = state(this).authorisationId ?? (linked ? decodeURIComponent(linked) : undefined);
  const r = await this.call('listing the signing basket\'s authorisations', (c) => authorisationOps(c, 'basket', id).list(plain(this, bgHeaders())));
  const what = 'GET /v1/signing-baskets/{basketId}/authorisations';
  const listed = expectAuthorisationsListed(this, r, what, authorisationId !== undefined ? [{ id: authorisationId }] : []);
  // Named nowhere, the PSU's authorisation is still one: the list holds at least it.
  if (!Array.isArray(listed) || listed.length === 0) throw this.violation(`${what} lists ${quote(listed)}, without the authorisation the PSU authorised`);
});

Then('the signing basket reads an authorised transactionStatus', async function (this: ConformanceWorld) {
  const { id } = theBasket(this);
  const r = await this.call('reading the signing basket\'s status', (c) => c.getSigningBasketStatus(id, plain(this, bgHeaders())));
  expectStatus(this, r, [200]);
  expectBgSchema(this, r, 'signingBasketStatusResponse-200');
  const got = transactionStatusOf(r.body);
  if (!(BASKET_AUTHORISED_STATUSES as readonly string[]).includes(got ?? '')) {
    throw this.violation(`the PSU authorised the signing basket, but it reads transactionStatus ${quote(got)}, not ${BASKET_AUTHORISED_STATUSES.join(' or ')}`);
  }
});

Then('the consent in the basket reads {string} and the payment in it is authorised', async function (this: ConformanceWorld, wanted: string) {
  const b = state(this);
  const consent = await this.call('reading the consent\'s status', (c) => c.getConsentStatus(b.consentId!, plain(this, bgHeaders())));
  expectStatus(this, consent, [200]);
  const consentStatus = consentStatusOf(consent.body);
  const paid = await this.call('reading the payment\'s status', (c) => c.getPaymentStatus(b.paymentId!, plain(this, bgHeaders())));
  expectStatus(this, paid, [200]);
  const paymentStatus = transactionStatusOf(paid.body);
  const wrong = [
    ...(consentStatus !== wanted ? [`the consent reads ${quote(consentStatus)}, not ${quote(wanted)}`] : []),
    ...(!(AUTHORISED_PAYMENT as readonly string[]).includes(paymentStatus ?? '') ? [`the payment reads transactionStatus ${quote(paymentStatus)}, not an authorised one (${AUTHORISED_PAYMENT.join(', ')})`] : []),
  ];
  if (wrong.length) throw this.violation(`the PSU authorised the signing basket, which one SCA must authorise with all it holds, but ${wrong.join(', and ')}`);
});

Then('the authorised signing basket can no longer be deleted', async function (this: ConformanceWorld) {
  const { id } = theBasket(this);
  const r = await this.call('deleting the authorised signing basket', (c) => c.deleteSigningBasket(id, plain(this, bgHeaders())));
  // The file: "not deletable after a first (partial) authorisation has been applied".
  if (r.status < 400 || r.status >= 500) throw this.violation(`DELETE of a signing basket the PSU authorised must be refused ("not deletable after a first (partial) authorisation"), got ${describeAnswer(r)}`);
  expectBgError(this, r);
});

/** A refusal: a 4xx with a valid error body, the code the file names for it a SHOULD. */
function refused(world: ConformanceWorld, r: ApiResult, why: string, status: number, code: string): void {
  if (r.status < 400 || r.status >= 500) throw world.violation(`a signing basket ${why} must be refused (the standard's ${status} ${code}), got ${describeAnswer(r)}`);
  expectBgError(world, r);
  if (r.status !== status || !errorCodesOf(r.body).includes(code)) {
    warn(world, `the refusal of a signing basket ${why}`, [{ text: `expected ${status} ${code}, got ${describeAnswer(r)}`, source: 'NextGenPSD2 1.3.x message codes of the signing baskets' }]);
  }
}

Then('a new signing basket naming the authorised payment is refused', async function (this: ConformanceWorld) {
  const r = await create(this, buildSigningBasket({ paymentIds: [state(this).paymentId!] }));
  refused(this, r, 'naming a payment already authorised', 409, 'REFERENCE_STATUS_INVALID');
});

Then('the bank refuses the signing basket with a NextGenPSD2 error', function (this: ConformanceWorld) {
  refused(this, state(this).created!, 'naming a payment the bank never made', 400, 'RESOURCE_UNKNOWN');
});

When('the TPP deletes the signing basket', async function (this: ConformanceWorld) {
  const { id } = theBasket(this);
  const r = await this.call('deleting the signing basket', (c) => c.deleteSigningBasket(id, plain(this, bgHeaders())));
  expectStatus(this, r, [204], 'DELETE of a signing basket not yet authorised removes it: expected 204');
});

Then('the signing basket is gone and the payment in it still reads RCVD', async function (this: ConformanceWorld) {
  const { id } = theBasket(this);
  const r = await this.call('reading the deleted signing basket', (c) => c.getSigningBasket(id, plain(this, bgHeaders())));
  if (r.status !== 404 && r.status !== 403 && !(r.status === 200 && transactionStatusOf(r.body) === 'CANC')) {
    throw this.violation(`the deleted signing basket is still there: ${describeAnswer(r)}`);
  }
  const paid = await this.call('reading the payment\'s status', (c) => c.getPaymentStatus(state(this).paymentId!, plain(this, bgHeaders())));
  expectStatus(this, paid, [200]);
  // The file: "The underlying transactions are not affected by this deletion."
  if (transactionStatusOf(paid.body) !== 'RCVD') throw this.violation(`deleting a signing basket must leave its payments as they were ("the underlying transactions are not affected"), but the payment reads ${quote(transactionStatusOf(paid.body))}`);
});
