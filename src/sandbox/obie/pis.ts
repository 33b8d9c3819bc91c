/**
 * Payment initiation (UK, variant A): payment-order consents and payment orders (both POSTed to
 * /domestic-payments), their reads, status, payment details and funds check, with the faults that
 * bend them. Its answers are signed and its POSTs must be (x-jws-signature, FACTS §1.8).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FaultDeclaration } from '../fault-declaration.ts';
import { availableBalance, parseMoney } from '../fixtures.ts';
import type { PaymentOrder, PisConsent } from '../store.ts';
import {
  A, ApiError, authenticate, clientCredentials, forbidden, idempotent, invalid, isObject, iso, links, missing, notFound,
  requireAccountRef, requireAmount, requireText, route, sameJson, status, unauthorised,
  type Reply, type Req, type ResourceContext, type UkRoute,
} from './plumbing.ts';

/** The faults of these routes, in the order of docs/rules.md (the registry sorts by rule). */
export const PIS_FAULTS = [
  { name: 'payment-status-unreadable', rule: 'PIS-03', description: 'GET /{payment-product}/{paymentId}/status fails', kind: 'rule' },
  { name: 'consent-not-consumed', rule: 'PIS-04', description: 'a payment-order consent stays Authorised after its payment order was submitted', kind: 'rule' },
  { name: 'payment-submitted-twice', rule: 'PIS-05', description: 'a second payment order on a consent already used (another x-idempotency-key) is accepted and creates a second order', kind: 'rule' },
  { name: 'payment-funds-unauthorised', rule: 'PIS-06', description: 'the funds check of a payment-order consent answers before the PSU authorised it', kind: 'rule' },
  { name: 'unsigned-payment-responses', rule: 'SEC-09', description: 'payment-initiation responses carry no x-jws-signature', kind: 'rule' },
  { name: 'bad-response-signature', rule: 'SEC-09', description: 'payment-initiation responses are signed with a key that is not in the bank\'s JWKS (same kid)', kind: 'rule' },
  { name: 'unsigned-requests-accepted', rule: 'SEC-10', description: 'payment requests with a missing, tampered or wrongly-keyed x-jws-signature are accepted', kind: 'rule' },
  { name: 'signature-iss-claim-ignored', rule: 'UKPIS-10', description: 'a payment request whose x-jws-signature header lacks the http://openbanking.org.uk/iss claim is accepted (the signature otherwise verifies)', kind: 'rule', standard: 'uk-3.1' },
] as const satisfies readonly FaultDeclaration[];

// ---- signatures (jose is loaded on the first payment, not with the fault list) --------------

/** Signs a payment-initiation answer that has a body, with the bank's key (or, under the fault, a stray one). */
export async function sign(k: ResourceContext, reply: Reply): Promise<void> {
  if (reply.body === undefined || k.faults.has('unsigned-payment-responses')) return;
  const { signAsBank } = await import('../signatures.ts');
  const key = (k.faults.has('bad-response-signature') && k.signing.strayKey) || k.signing.bankKey;
  reply.headers = { ...reply.headers, 'x-jws-signature': await signAsBank(JSON.stringify(reply.body), key, k.signing.issuer) };
}

/** Refuses a payment request whose x-jws-signature is missing, tampered or not the TPP's (unless the fault accepts it). */
export async function verify(k: ResourceContext, raw: IncomingMessage, bodyText: string): Promise<void> {
  if (k.faults.has('unsigned-requests-accepted')) return;
  const { checkTppSignature } = await import('../signatures.ts');
  let refusal = await checkTppSignature(raw.headers['x-jws-signature'], bodyText, k.signing.tppKeys);
  // The fault lets a signature without its iss claim through (and judges no further).
  if (refusal?.code === 'MissingClaim' && refusal.message.endsWith('/iss') && k.faults.has('signature-iss-claim-ignored')) refusal = undefined;
  if (refusal) throw new ApiError(400, `UK.OBIE.Signature.${refusal.code}`, refusal.message, 'x-jws-signature');
}

// ---- representations ---------------------------------------------------------------------

function paymentBody(c: PisConsent, self: string) {
  return {
    Data: {
      ConsentId: c.ConsentId, CreationDateTime: iso(c.CreationDateTime), Status: c.Status, StatusUpdateDateTime: iso(c.StatusUpdateDateTime),
      Initiation: c.Initiation,
      ...(c.Debtor ? { Debtor: c.Debtor } : {}),
    },
    Risk: c.Risk,
    Links: { Self: self },
    Meta: {},
  };
}

function orderBody(o: PaymentOrder, self: string) {
  return {
    Data: {
      DomesticPaymentId: o.DomesticPaymentId, ConsentId: o.ConsentId, CreationDateTime: iso(o.CreationDateTime), Status: o.Status,
      StatusUpdateDateTime: iso(o.StatusUpdateDateTime), Initiation: o.Initiation, ...(o.Debtor ? { Debtor: o.Debtor } : {}),
    },
    Links: { Self: self },
    Meta: {},
  };
}

// ---- creates -------------------------------------------------------------------------------

/**
 * POST /{payment-product}: creates the payment-order consent or, when the body names its consent
 * (`OBWriteDomestic2`, Data.ConsentId), submits the payment order: in the seed, the consent and the
 * order share the collection, and GET /{payment-product}/{id} reads either.
 */
async function createPayment(k: ResourceContext, r: Req): Promise<Reply> {
  if (isObject(r.body?.Data) && r.body.Data.ConsentId !== undefined) return submitPayment(k, r);
  return createPaymentConsent(k, r);
}

/** POST /domestic-payment-consents (the UK layout), and the consent half of the spec's POST /{payment-product}. */
async function createPaymentConsent(k: ResourceContext, r: Req): Promise<Reply> {
  const auth = await clientCredentials(k, r, 'payments');
  const data = r.body?.Data;
  if (!isObject(data)) throw missing('Data');
  const initiation = data.Initiation;
  if (!isObject(initiation)) throw missing('Data.Initiation');
  requireText(initiation, 'InstructionIdentification', 'Data.Initiation.InstructionIdentification', 35);
  requireText(initiation, 'EndToEndIdentification', 'Data.Initiation.EndToEndIdentification', 35);
  requireAmount(initiation.InstructedAmount, 'Data.Initiation.InstructedAmount');
  requireAccountRef(initiation.CreditorAccount, 'Data.Initiation.CreditorAccount');
  if (initiation.CreditorAccount.Name === undefined) throw missing('Data.Initiation.CreditorAccount.Name');
  if (initiation.DebtorAccount !== undefined) requireAccountRef(initiation.DebtorAccount, 'Data.Initiation.DebtorAccount');
  if (r.body.Risk === undefined) throw missing('Risk');
  if (!isObject(r.body.Risk)) throw invalid('Risk', 'must be an object');
  const consent = idempotent(k, r, auth.clientId, 'domestic-payments', true, () => k.store.add<PisConsent>({
    kind: 'pis', clientId: auth.clientId, Status: 'AwaitingAuthorisation',
    Initiation: initiation as PisConsent['Initiation'], Risk: r.body.Risk,
  }));
  return { status: status(k, r, true), body: paymentBody(consent, `${r.self}/${consent.ConsentId}`) };
}

/** POST of a payment order: the PSU's token for the consent, the consent's Initiation and Risk unchanged, once. */
async function submitPayment(k: ResourceContext, r: Req): Promise<Reply> {
  const { store, faults } = k;
  const auth = await authenticate(k, r);
  if (!auth) throw unauthorised('an access token is required');
  if (auth.kind !== 'code') throw forbidden('a payment order needs the PSU\'s authorization-code token, not a client-credentials token');
  if (!auth.scopes.includes('payments') || auth.consent?.kind !== 'pis' || 'family' in auth.consent || auth.consent.vrp) throw forbidden('the access token was not issued for a payment-order consent');
  const consent = auth.consent;
  const data = r.body?.Data;
  if (!isObject(data)) throw missing('Data');
  const consentId = requireText(data, 'ConsentId', 'Data.ConsentId', 128);
  if (consentId !== consent.ConsentId) throw new ApiError(400, 'UK.OBIE.Resource.ConsentMismatch', 'Data.ConsentId is not the consent this token was authorised for', 'Data.ConsentId');
  if (!isObject(data.Initiation)) throw missing('Data.Initiation');
  if (r.body.Risk === undefined) throw missing('Risk');
  if (!sameJson(data.Initiation, consent.Initiation)) throw new ApiError(400, 'UK.OBIE.Resource.ConsentMismatch', 'Data.Initiation differs from the consent\'s', 'Data.Initiation');
  if (!sameJson(r.body.Risk, consent.Risk)) throw new ApiError(400, 'UK.OBIE.Resource.ConsentMismatch', 'Risk differs from the consent\'s', 'Risk');
  const key = r.headers['x-idempotency-key'];
  if (typeof key !== 'string' || key === '') throw new ApiError(400, 'UK.OBIE.Header.Missing', 'x-idempotency-key is required', 'x-idempotency-key');
  if (key.length > 40) throw new ApiError(400, 'UK.OBIE.Header.Invalid', 'x-idempotency-key must be at most 40 characters', 'x-idempotency-key');
  const slot = `${auth.clientId} payment-orders ${key}`;
  const seen = store.idempotency.get(slot);
  if (seen) {
    if (seen.body !== JSON.stringify(r.body)) throw new ApiError(400, 'UK.OBIE.Header.Invalid', 'x-idempotency-key was already used with a different body', 'x-idempotency-key');
    const earlier = store.orders.get(seen.id);
    if (earlier) return { status: status(k, r, true), body: orderBody(earlier, `${r.self}/${earlier.DomesticPaymentId}`) };
  }
  const twice = faults.has('payment-submitted-twice');
  const used = [...store.orders.values()].some((o) => o.ConsentId === consent.ConsentId);
  if (consent.Status !== 'Authorised' && !(twice && consent.Status === 'Consumed')) {
    throw new ApiError(400, 'UK.OBIE.Resource.InvalidConsentStatus', `the consent is ${consent.Status}`, 'Data.ConsentId');
  }
  if (used && !twice) throw new ApiError(400, 'UK.OBIE.Resource.InvalidConsentStatus', 'the consent has already been used for a payment order', 'Data.ConsentId');
  const now = new Date(store.now());
  const order: PaymentOrder = {
    DomesticPaymentId: `dp-${randomUUID()}`, ConsentId: consent.ConsentId, clientId: auth.clientId, Status: 'AcceptedSettlementInProcess',
    CreationDateTime: now, StatusUpdateDateTime: now, Initiation: consent.Initiation,
    ...(consent.Debtor ?? consent.Initiation.DebtorAccount ? { Debtor: consent.Debtor ?? consent.Initiation.DebtorAccount } : {}),
  };
  store.orders.set(order.DomesticPaymentId, order);
  store.idempotency.set(slot, { body: JSON.stringify(r.body), id: order.DomesticPaymentId });
  if (!faults.has('consent-not-consumed')) store.setStatus(consent, 'Consumed');
  return { status: status(k, r, true), body: orderBody(order, `${r.self}/${order.DomesticPaymentId}`) };
}

// ---- reads ---------------------------------------------------------------------------------

/** A payment order read: the client's own client-credentials token, or the PSU token of its consent. */
async function ownOrder(k: ResourceContext, r: Req): Promise<PaymentOrder | undefined> {
  const o = k.store.orders.get(r.params.paymentId);
  if (!o) return undefined;
  const auth = await authenticate(k, r);
  if (!auth) throw unauthorised('an access token is required');
  if (!auth.scopes.includes('payments')) throw forbidden('the access token lacks the scope payments');
  if (o.clientId !== auth.clientId) throw notFound('payment', 'paymentId');
  if (auth.kind === 'code' && auth.consent?.ConsentId !== o.ConsentId) throw forbidden('the access token was authorised for another payment');
  return o;
}

/** A payment read: the client's own client-credentials token, or that payment's PSU token. */
async function ownPayment(k: ResourceContext, r: Req): Promise<PisConsent> {
  const auth = await authenticate(k, r);
  if (!auth) throw unauthorised('an access token is required');
  if (!auth.scopes.includes('payments')) throw forbidden('the access token lacks the scope payments');
  const c = k.store.consents.get(r.params.paymentId);
  // The other payment families' consents (pis-families.ts) are not domestic payments.
  if (!c || c.kind !== 'pis' || 'family' in c || c.vrp || c.clientId !== auth.clientId) throw notFound('payment', 'paymentId');
  if (auth.kind === 'code' && auth.consent?.ConsentId !== c.ConsentId) throw forbidden('the access token was authorised for another payment');
  return c;
}

async function getPaymentDetails(k: ResourceContext, r: Req): Promise<Reply> {
  const o = await ownOrder(k, r);
  if (!o) throw notFound('payment order', 'DomesticPaymentId');
  return {
    status: 200,
    body: { Data: { PaymentStatus: [{ PaymentTransactionId: `${o.DomesticPaymentId}-1`, Status: o.Status, StatusUpdateDateTime: iso(o.StatusUpdateDateTime) }] }, Links: links(r), Meta: {} },
  };
}

/** GET …/{ConsentId}/funds-confirmation: under the PSU's token, for an authorised consent only (FACTS §4.3). */
async function getPaymentFunds(k: ResourceContext, r: Req): Promise<Reply> {
  const { store } = k;
  const auth = await authenticate(k, r);
  if (!auth) throw unauthorised('an access token is required');
  const c = store.consents.get(r.params.paymentId);
  if (!c || c.kind !== 'pis' || 'family' in c || c.vrp || c.clientId !== auth.clientId) throw notFound('payment', 'ConsentId');
  const lax = k.faults.has('payment-funds-unauthorised');
  if (auth.kind === 'cc' && !lax) throw forbidden('the funds check needs the PSU\'s authorization-code token');
  if (auth.kind === 'code' && auth.consent?.ConsentId !== c.ConsentId) throw forbidden('the access token was authorised for another payment');
  if (c.Status !== 'Authorised' && !lax) throw new ApiError(400, 'UK.OBIE.Resource.InvalidConsentStatus', `the consent is ${c.Status}`, 'ConsentId');
  const debtor = c.Debtor ?? c.Initiation.DebtorAccount;
  const account = store.accountByRef(debtor);
  const wanted = parseMoney(c.Initiation.InstructedAmount.Amount) ?? Infinity;
  return {
    status: 200,
    body: { Data: { FundsAvailableResult: { FundsAvailableDateTime: iso(new Date(store.now())), FundsAvailable: account ? wanted <= availableBalance(account) : false } }, Links: links(r), Meta: {} },
  };
}

async function getPayment(k: ResourceContext, r: Req): Promise<Reply> {
  const o = await ownOrder(k, r);
  if (o) return { status: 200, body: orderBody(o, r.self) };
  const c = await ownPayment(k, r);
  return { status: 200, body: paymentBody(c, r.self) };
}

/** GET /domestic-payment-consents/{ConsentId} (the UK layout): the consent only. */
async function getPaymentConsent(k: ResourceContext, r: Req): Promise<Reply> {
  return { status: 200, body: paymentBody(await ownPayment(k, r), r.self) };
}

/** GET /domestic-payments/{DomesticPaymentId} (the UK layout): the order only. */
async function getPaymentOrder(k: ResourceContext, r: Req): Promise<Reply> {
  const o = await ownOrder(k, r);
  if (!o) throw notFound('payment order', 'DomesticPaymentId');
  return { status: 200, body: orderBody(o, r.self) };
}

async function getPaymentStatus(k: ResourceContext, r: Req): Promise<Reply> {
  const o = await ownOrder(k, r);
  const c = o ? undefined : await ownPayment(k, r);
  if (k.faults.has('payment-status-unreadable')) throw new ApiError(500, 'UK.OBIE.UnexpectedError', 'the payment status could not be read');
  if (o) return { status: 200, body: { Data: { ConsentId: o.ConsentId, DomesticPaymentId: o.DomesticPaymentId, Status: o.Status, StatusUpdateDateTime: iso(o.StatusUpdateDateTime) }, Links: links(r), Meta: {} } };
  if (!c) throw notFound('payment', 'paymentId');
  return { status: 200, body: { Data: { ConsentId: c.ConsentId, Status: c.Status, StatusUpdateDateTime: iso(c.StatusUpdateDateTime) }, Links: links(r), Meta: {} } };
}

/** The routes of payment initiation, in matching order: every answer signed, the POST's request checked. */
export const PIS_ROUTES: UkRoute[] = [
  route(A, 'POST', '/domestic-payments', createPayment, { sign, verify }),
  route(A, 'GET', '/domestic-payments/:paymentId', getPayment, { sign }),
  route(A, 'GET', '/domestic-payments/:paymentId/status', getPaymentStatus, { sign }),
  route(A, 'GET', '/domestic-payments/:paymentId/payment-details', getPaymentDetails, { sign }),
  route(A, 'GET', '/domestic-payments/:paymentId/funds-confirmation', getPaymentFunds, { sign }),
];

/**
 * The same operations as UK Read/Write v3.1.11 places them (below /pisp): the consent in
 * /domestic-payment-consents, the order in /domestic-payments. Each keeps the spec layout's
 * operation name, so that a fault that bends one bends it in both layouts.
 */
export const PIS_UK_ROUTES: UkRoute[] = [
  route(A, 'POST', '/pisp/domestic-payment-consents', createPaymentConsent, { sign, verify, operation: 'createPayment' }),
  route(A, 'GET', '/pisp/domestic-payment-consents/:paymentId', getPaymentConsent, { sign, operation: 'getPayment' }),
  route(A, 'GET', '/pisp/domestic-payment-consents/:paymentId/funds-confirmation', getPaymentFunds, { sign }),
  route(A, 'POST', '/pisp/domestic-payments', submitPayment, { sign, verify, operation: 'createPayment' }),
  route(A, 'GET', '/pisp/domestic-payments/:paymentId', getPaymentOrder, { sign, operation: 'getPayment' }),
  route(A, 'GET', '/pisp/domestic-payments/:paymentId/payment-details', getPaymentDetails, { sign }),
];
