/**
 * Payment initiation (XS2A, variant A): single payments of the SEPA products, their reads, status,
 * authorisation sub-resources and cancellation (with its authorisation), with the faults that bend them.
 */
import type { FaultDeclaration } from '../fault-declaration.ts';
import { CURRENCY, ibanValid, parseBgAmount } from './data.ts';
import type { BgPayment } from './store.ts';
import {
  A, BgError, approachHeader, approachOf, format, header, isObject, listAuthorisations, newAuthorisation, route, scaLinks, scaOfCreate, today, validDate,
  type BgRoute, type Reply, type Req, type Xs2aContext,
} from './plumbing.ts';
import { scaStatus, startAuthorisationWithData, updatePsuData } from './sca.ts';

/** The faults of these routes, in the order of docs/rules.md (the registry sorts by rule). */
export const PAYMENT_FAULTS = [
  { name: 'bg-cancelled-payment-not-canc', rule: 'BG-40', description: 'DELETE /v1/payments/{product}/{paymentId} answers 204, but the payment keeps its status (it never reads CANC)', kind: 'rule' },
  { name: 'bg-cancellation-authorised-not-canc', rule: 'BG-41', description: 'a cancellation the PSU authorised (…/cancellation-authorisations, finalised) leaves the payment as it was: it never reads CANC', kind: 'rule' },
  { name: 'bg-cancellation-authorisations-unlisted', rule: 'BG-41', description: 'GET …/{paymentId}/cancellation-authorisations lists no authorisation, though the TPP started one', kind: 'rule' },
  { name: 'bg-payment-stays-rcvd', rule: 'BG-08', description: 'GET /v1/payments/{product}/{paymentId} reads transactionStatus RCVD after the PSU authorised or rejected the payment', kind: 'rule' },
  { name: 'bg-payment-without-amount-accepted', rule: 'PIS-01', description: 'POST /v1/payments/{product} without instructedAmount is accepted (201)', kind: 'rule' },
  { name: 'bg-payment-without-sca-link', rule: 'PIS-01', description: 'the 201 of POST /v1/payments/{product} carries no link to start the PSU\'s SCA (no scaRedirect, scaOAuth or startAuthorisation)', kind: 'rule' },
  { name: 'bg-payment-status-not-iso', rule: 'PIS-03', description: 'GET …/{paymentId}/status answers transactionStatus "DONE", no ISO 20022 code', kind: 'rule' },
] as const satisfies readonly FaultDeclaration[];

const PRODUCTS = ['sepa-credit-transfers', 'instant-sepa-credit-transfers'];

function productOf(r: Req): string {
  if (!PRODUCTS.includes(r.params.product)) throw new BgError(404, 'PRODUCT_UNKNOWN', `the payment product ${r.params.product} is not offered (offered: ${PRODUCTS.join(', ')})`);
  return r.params.product;
}

function accountRef(value: unknown, path: string): string {
  if (!isObject(value)) throw format(`${path} is required`, path);
  if (typeof value.iban !== 'string' || !ibanValid(value.iban.replace(/\s/g, ''))) throw format(`${path}.iban must be a valid IBAN`, `${path}.iban`);
  return value.iban.replace(/\s/g, '');
}

/** Checks a payment's body (the faults may fill in what it lacks); answers its amount in minor units. */
function paymentAmount(k: Xs2aContext, b: Record<string, any>, product: string): number {
  accountRef(b.debtorAccount, 'debtorAccount');
  accountRef(b.creditorAccount, 'creditorAccount');
  if (k.faults.has('bg-payment-without-amount-accepted') && b.instructedAmount === undefined) b.instructedAmount = { currency: CURRENCY, amount: '1.00' };
  if (!isObject(b.instructedAmount)) throw format('instructedAmount is required', 'instructedAmount');
  const amount = parseBgAmount(b.instructedAmount.amount);
  if (amount === undefined || amount <= 0) throw format('instructedAmount.amount must be a positive amount', 'instructedAmount.amount');
  if (b.instructedAmount.currency !== CURRENCY) throw format(`instructedAmount.currency must be ${CURRENCY} for ${product}`, 'instructedAmount.currency');
  if (typeof b.creditorName !== 'string' || b.creditorName === '' || b.creditorName.length > 70) throw format('creditorName is required (1 to 70 characters)', 'creditorName');
  for (const [f, max] of [['endToEndIdentification', 35], ['remittanceInformationUnstructured', 140]] as const) {
    if (b[f] !== undefined && (typeof b[f] !== 'string' || b[f].length > max)) throw format(`${f} must be a string of at most ${max} characters`, f);
  }
  if (b.requestedExecutionDate !== undefined && (!validDate(b.requestedExecutionDate) || b.requestedExecutionDate < today(k))) throw new BgError(400, 'EXECUTION_DATE_INVALID', 'requestedExecutionDate must be an ISODate, today or later', 'requestedExecutionDate');
  return amount;
}

function createPayment(k: Xs2aContext, r: Req): Reply {
  const { store } = k;
  const product = productOf(r);
  if (!header(r, 'PSU-IP-Address')) throw format('PSU-IP-Address is required', 'PSU-IP-Address');
  const b = r.body;
  if (!isObject(b)) throw format('the body must be a JSON object');
  const amount = paymentAmount(k, b, product);
  const approach = approachOf(k, r);
  const payment: BgPayment = {
    kind: 'pis', id: store.newId('payment'), approach, authorisations: [], created: new Date(store.now()),
    product, body: structuredClone(b), amountMinor: amount, transactionStatus: 'RCVD', cancellations: [],
  };
  const self = `${r.base}/v1/payments/${product}/${payment.id}`;
  const sca = scaOfCreate(k, r, payment, self);
  store.payments.set(payment.id, payment);
  return {
    status: 201,
    headers: { Location: self, 'ASPSP-SCA-Approach': approachHeader(approach) },
    body: {
      transactionStatus: payment.transactionStatus,
      paymentId: payment.id,
      _links: { ...(k.faults.has('bg-payment-without-sca-link') ? {} : sca.links), self: { href: self }, status: { href: `${self}/status` } },
      ...(sca.psuMessage ? { psuMessage: sca.psuMessage } : {}),
    },
  };
}

function paymentOf(k: Xs2aContext, r: Req): BgPayment {
  const product = productOf(r);
  const p = k.store.payments.get(r.params.paymentId);
  if (!p || p.product !== product) throw new BgError(404, 'RESOURCE_UNKNOWN', 'no such payment');
  return p;
}

const getPayment = (k: Xs2aContext, r: Req): Reply => {
  const p = paymentOf(k, r);
  return { status: 200, body: { ...p.body, transactionStatus: k.faults.has('bg-payment-stays-rcvd') ? 'RCVD' : p.transactionStatus } };
};
const getPaymentStatus = (k: Xs2aContext, r: Req): Reply => ({ status: 200, body: { transactionStatus: k.faults.has('bg-payment-status-not-iso') ? 'DONE' : paymentOf(k, r).transactionStatus } });

const paymentSelf = (r: Req) => `${r.base}/v1/payments/${r.params.product}/${r.params.paymentId}`;

/** Statuses after which nothing can be cancelled (settled, rejected, cancelled). */
const SETTLED = ['ACSC', 'ACCC', 'RJCT', 'CANC'];

/**
 * DELETE …/{paymentId}: a payment not yet authorised and not scheduled is cancelled at once (204,
 * CANC); a scheduled one (requestedExecutionDate after today, authorised or not) only once the PSU
 * authorises the cancellation (202 with the link to start that); anything else is past cancelling
 * (405 CANCELLATION_INVALID, as the file's METHOD_NOT_ALLOWED_405_PIS_CANC has it).
 */
function cancelPayment(k: Xs2aContext, r: Req): Reply {
  const p = paymentOf(k, r);
  const scheduled = typeof p.body.requestedExecutionDate === 'string' && p.body.requestedExecutionDate > today(k);
  if (SETTLED.includes(p.transactionStatus) || (!scheduled && p.transactionStatus !== 'RCVD')) {
    throw new BgError(405, 'CANCELLATION_INVALID', `the payment (${p.transactionStatus}) can no longer be cancelled`);
  }
  if (!scheduled) {
    if (!k.faults.has('bg-cancelled-payment-not-canc')) p.transactionStatus = 'CANC';
    return { status: 204 };
  }
  p.cancelRequested = true;
  return { status: 202, body: { transactionStatus: p.transactionStatus, _links: { startAuthorisation: { href: `${paymentSelf(r)}/cancellation-authorisations` } } } };
}

/**
 * POST …/cancellation-authorisations: the PSU authorises the cancellation on the bank's pages
 * (redirect: TPP-Redirect-URI is needed, whatever approach the payment itself took).
 */
function startCancellation(k: Xs2aContext, r: Req): Reply {
  const p = paymentOf(k, r);
  if (!p.cancelRequested || SETTLED.includes(p.transactionStatus)) throw new BgError(409, 'STATUS_INVALID', 'no cancellation of this payment awaits authorisation (DELETE the payment first)');
  if (!header(r, 'TPP-Redirect-URI')) throw format('TPP-Redirect-URI is required: this bank has the PSU authorise a cancellation on its own pages (redirect)', 'TPP-Redirect-URI');
  const a = { ...newAuthorisation(k, r, 'REDIRECT'), cancellation: true };
  p.cancellations.push(a);
  const href = `${paymentSelf(r)}/cancellation-authorisations/${a.authorisationId}`;
  return {
    status: 201,
    headers: { Location: href, 'ASPSP-SCA-Approach': approachHeader('REDIRECT') },
    body: { scaStatus: a.scaStatus, authorisationId: a.authorisationId, _links: { ...scaLinks(k, a, href), scaStatus: { href } } },
  };
}

function cancellationOf(k: Xs2aContext, r: Req) {
  const a = paymentOf(k, r).cancellations.find((x) => x.authorisationId === r.params.authorisationId);
  if (!a) throw new BgError(404, 'RESOURCE_UNKNOWN', 'no such cancellation authorisation');
  return a;
}

/** The routes of payment initiation, in matching order. */
export const PAYMENT_ROUTES: BgRoute[] = [
  route(A, 'POST', '/v1/payments/:product', createPayment),
  route(A, 'GET', '/v1/payments/:product/:paymentId', getPayment),
  route(A, 'GET', '/v1/payments/:product/:paymentId/status', getPaymentStatus),
  route(A, 'DELETE', '/v1/payments/:product/:paymentId', cancelPayment),
  route(A, 'POST', '/v1/payments/:product/:paymentId/cancellation-authorisations', startCancellation),
  route(A, 'GET', '/v1/payments/:product/:paymentId/cancellation-authorisations', (k, r) => ({
    status: 200, body: { authorisationIds: k.faults.has('bg-cancellation-authorisations-unlisted') ? [] : paymentOf(k, r).cancellations.map((a) => a.authorisationId) },
  })),
  route(A, 'GET', '/v1/payments/:product/:paymentId/cancellation-authorisations/:authorisationId', (k, r) => ({ status: 200, body: { scaStatus: cancellationOf(k, r).scaStatus } })),
  route(A, 'POST', '/v1/payments/:product/:paymentId/authorisations', (k, r) => startAuthorisationWithData(k, r, paymentOf(k, r), paymentSelf(r))),
  route(A, 'GET', '/v1/payments/:product/:paymentId/authorisations', (k, r) => listAuthorisations(paymentOf(k, r))),
  route(A, 'GET', '/v1/payments/:product/:paymentId/authorisations/:authorisationId', (k, r) => scaStatus(k, paymentOf(k, r), r.params.authorisationId)),
  route(A, 'PUT', '/v1/payments/:product/:paymentId/authorisations/:authorisationId', (k, r) => updatePsuData(k, r, paymentOf(k, r), paymentSelf(r))),
];
