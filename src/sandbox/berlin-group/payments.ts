/**
 * Payment initiation (XS2A, variant A): single payments of the SEPA products, their reads, status,
 * authorisation sub-resources and cancellation (with its authorisation), with the faults that bend them.
 */
import type { FaultDeclaration } from '../fault-declaration.ts';
import { CURRENCY, ibanValid, parseBgAmount } from './data.ts';
import type { BgPayment } from './store.ts';
import {
  A, BgError, approachHeader, approachOf, approachWithoutOAuth, format, header, isObject, newAuthorisation, route, scaLinks, scaOfCreate, today, validDate,
  type BgRoute, type Reply, type Req, type Xs2aContext,
} from './plumbing.ts';
import { scaStatus, startAuthorisationWithData, updatePsuData } from './sca.ts';
import { pain001Body, readPain001, XML_PRODUCTS } from './pain001.ts';
import { buildPain002, wantsXml } from './pain002.ts';
import { listedAuthorisations, multilevelStart } from './multilevel.ts';

/** The faults of these routes, in the order of docs/rules.md (the registry sorts by rule). */
export const PAYMENT_FAULTS = [
  { name: 'bg-cancelled-payment-not-canc', rule: 'BG-40', description: 'DELETE /v1/payments/{product}/{paymentId} answers 204, but the payment keeps its status (it never reads CANC)', kind: 'rule' },
  { name: 'bg-cancellation-authorisations-unlisted', rule: 'BG-41', description: 'GET …/{paymentId}/cancellation-authorisations lists no authorisation, though the TPP started one', kind: 'rule' },
  { name: 'bg-periodic-read-back-changed', rule: 'BG-42', description: 'GET /v1/periodic-payments/{product}/{paymentId} reads back another frequency than the standing order asked (Monthly reads Weekly, any other Monthly)', kind: 'rule' },
  { name: 'bg-periodic-frequency-unchecked', rule: 'BG-42', description: 'POST /v1/periodic-payments/{product} accepts a frequency outside the standard\'s code list (EventFrequency7Code)', kind: 'rule' },
  { name: 'bg-bulk-payments-dropped', rule: 'BG-43', description: 'GET /v1/bulk-payments/{product}/{paymentId} reads back the first payment of the bulk alone', kind: 'rule' },
  { name: 'bg-product-not-kept', rule: 'BG-44', description: 'a payment initiated as target-2-payments or cross-border-credit-transfers cannot be read under its product: GET /v1/payments/{product}/{paymentId} answers 404', kind: 'rule' },
  { name: 'bg-pain001-read-back-changed', rule: 'BG-45', description: 'GET /v1/{payment-service}/pain.001-…/{paymentId} reads back another pain.001 than was sent (its MsgId and its first amount changed)', kind: 'rule' },
  { name: 'bg-pain001-standing-order-changed', rule: 'BG-45', description: 'GET /v1/periodic-payments/pain.001-…/{paymentId} answers the standing order\'s json_standingorderType part with another frequency than was sent', kind: 'rule' },
  { name: 'bg-pain001-control-sum-unchecked', rule: 'BG-45', description: 'POST /v1/bulk-payments/pain.001-… accepts a pain.001 whose NbOfTxs and CtrlSum do not match its transactions', kind: 'rule' },
  { name: 'bg-pain002-wrong-original', rule: 'BG-45', description: 'GET /v1/payments/pain.001-…/{paymentId}/status (Accept: application/xml) answers a pain.002 whose OrgnlMsgId is not the MsgId of the pain.001 sent', kind: 'rule' },
  { name: 'bg-pain002-status-differs', rule: 'BG-45', description: 'GET /v1/payments/pain.001-…/{paymentId}/status (Accept: application/xml) answers a pain.002 whose GrpSts is not the transaction status the JSON status answer gives (RCVD reads ACSC, any other RCVD)', kind: 'rule' },
  { name: 'bg-payment-stays-rcvd', rule: 'BG-08', description: 'GET /v1/payments/{product}/{paymentId} reads transactionStatus RCVD after the PSU authorised or rejected the payment', kind: 'rule' },
  { name: 'bg-payment-without-amount-accepted', rule: 'PIS-01', description: 'POST /v1/payments/{product} without instructedAmount is accepted (201)', kind: 'rule' },
  { name: 'bg-payment-without-sca-link', rule: 'PIS-01', description: 'the 201 of POST /v1/payments/{product} carries no link to start the PSU\'s SCA (no scaRedirect, scaOAuth or startAuthorisation)', kind: 'rule' },
  { name: 'bg-payment-status-not-iso', rule: 'PIS-03', description: 'GET …/{paymentId}/status answers transactionStatus "DONE", no ISO 20022 code', kind: 'rule' },
] as const satisfies readonly FaultDeclaration[];

const PRODUCTS = ['sepa-credit-transfers', 'instant-sepa-credit-transfers', 'target-2-payments', 'cross-border-credit-transfers', ...XML_PRODUCTS];

/** The payment services this bank offers (JSON bodies; pain.001 for payments and bulks). */
export const SERVICES = ['payments', 'periodic-payments', 'bulk-payments'] as const;
type Service = (typeof SERVICES)[number];
const FREQUENCIES = ['Daily', 'Weekly', 'EveryTwoWeeks', 'Monthly', 'EveryTwoMonths', 'Quarterly', 'SemiAnnual', 'Annual', 'MonthlyVariable'];

function productOf(r: Req, k?: Xs2aContext): string {
  // The fault: a payment of the TARGET2 or cross-border product is looked for among the SEPA credit transfers.
  if (k?.faults.has('bg-product-not-kept') && ['target-2-payments', 'cross-border-credit-transfers'].includes(r.params.product)) return 'sepa-credit-transfers';
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

/** A standing order's own members: startDate (today or later), endDate (not before it), frequency, executionRule, dayOfExecution, monthsOfExecution. */
function checkPeriodic(k: Xs2aContext, b: Record<string, any>): void {
  if (!validDate(b.startDate) || b.startDate < today(k)) throw new BgError(400, 'EXECUTION_DATE_INVALID', 'startDate is required: an ISODate, today or later', 'startDate');
  if (b.endDate !== undefined && (!validDate(b.endDate) || b.endDate < b.startDate)) throw new BgError(400, 'EXECUTION_DATE_INVALID', 'endDate must be an ISODate not before startDate', 'endDate');
  if (!FREQUENCIES.includes(b.frequency) && !(k.faults.has('bg-periodic-frequency-unchecked') && typeof b.frequency === 'string')) {
    throw format(`frequency is required, one of ${FREQUENCIES.join(', ')}`, 'frequency');
  }
  if (b.executionRule !== undefined && b.executionRule !== 'following' && b.executionRule !== 'preceding') throw format('executionRule must be following or preceding', 'executionRule');
  if (b.dayOfExecution !== undefined && (typeof b.dayOfExecution !== 'string' || !/^([1-9]|[12][0-9]|3[01])$/.test(b.dayOfExecution))) throw format('dayOfExecution must be "1" … "31" (no leading zero)', 'dayOfExecution');
  const months = b.monthsOfExecution;
  if (b.frequency === 'MonthlyVariable') {
    if (!Array.isArray(months) || months.length === 0 || months.length > 11 || new Set(months).size !== months.length || !months.every((m) => typeof m === 'string' && /^([1-9]|1[0-2])$/.test(m))) {
      throw format('monthsOfExecution is required with MonthlyVariable: 1 to 11 different months "1" … "12"', 'monthsOfExecution');
    }
  } else if (months !== undefined) throw format('monthsOfExecution is given only with frequency MonthlyVariable', 'monthsOfExecution');
}

/** A bulk: its debtorAccount, and each payment of `payments` checked as a single one (without a debtor or date of its own); answers the total in minor units. */
function bulkAmount(k: Xs2aContext, b: Record<string, any>, product: string): number {
  const debtor = b.debtorAccount;
  if (b.batchBookingPreferred !== undefined && typeof b.batchBookingPreferred !== 'boolean') throw format('batchBookingPreferred must be true or false', 'batchBookingPreferred');
  if (!Array.isArray(b.payments) || b.payments.length === 0 || b.payments.length > 100) throw format('payments is required: 1 to 100 payments', 'payments');
  let total = 0;
  b.payments.forEach((p: unknown, i: number) => {
    if (!isObject(p)) throw format(`payments[${i}] must be an object`, `payments[${i}]`);
    for (const f of ['debtorAccount', 'requestedExecutionDate', 'requestedExecutionTime']) {
      if (p[f] !== undefined) throw format(`payments[${i}].${f}: a bulk's payments share the bulk's`, `payments[${i}].${f}`);
    }
    total += paymentAmount(k, { ...p, debtorAccount: debtor }, product);
  });
  return total;
}

function createPayment(k: Xs2aContext, r: Req, service: Service = 'payments'): Reply {
  const { store } = k;
  const product = productOf(r);
  if (!header(r, 'PSU-IP-Address')) throw format('PSU-IP-Address is required', 'PSU-IP-Address');
  const xml = XML_PRODUCTS.includes(product);
  const unchecked = k.faults.has('bg-pain001-control-sum-unchecked');
  let b: unknown;
  let sent: { xml: string; standingOrder?: string } | undefined;
  if (xml && service === 'periodic-payments') {
    // The file's multipart form: the pain.001 of the one transfer, and the standing order's terms in JSON.
    if (!r.multipart) throw new BgError(415, 'FORMAT_ERROR', `a standing order of ${product} is multipart/form-data: its pain.001 document (xml_sct) and its terms (json_standingorderType)`);
    const document = r.multipart.get('xml_sct');
    const terms = r.multipart.get('json_standingorderType');
    if (document === undefined) throw format('the part xml_sct (the pain.001 document) is missing', 'xml_sct');
    if (terms === undefined) throw format('the part json_standingorderType (the standing order\'s terms) is missing', 'json_standingorderType');
    let order: unknown;
    try {
      order = JSON.parse(terms);
    } catch {
      throw format('the part json_standingorderType is not JSON', 'json_standingorderType');
    }
    if (!isObject(order)) throw format('the part json_standingorderType must be a JSON object', 'json_standingorderType');
    const known = ['startDate', 'endDate', 'executionRule', 'frequency', 'dayOfExecution', 'monthsOfExecution'];
    const stray = Object.keys(order).filter((key) => !known.includes(key));
    if (stray.length) throw format(`json_standingorderType has no member ${stray.join(', ')}`, 'json_standingorderType');
    b = { ...pain001Body('payments', readPain001(document, { unchecked })), ...order };
    sent = { xml: document, standingOrder: terms };
  } else {
    if (r.multipart) throw new BgError(415, 'FORMAT_ERROR', `multipart/form-data is the body of a standing order with a pain.001 product only; ${service} of ${product} takes ${xml ? 'application/xml' : 'application/json'}`);
    if (xml !== (r.xml !== undefined)) throw new BgError(415, 'FORMAT_ERROR', xml ? `the body of ${product} is a pain.001.001.03 document (application/xml)` : `the body of ${product} is JSON (application/json)`);
    b = xml ? pain001Body(service, readPain001(r.xml!, { unchecked })) : r.body;
    if (xml) sent = { xml: r.xml! };
  }
  if (!isObject(b)) throw format('the body must be a JSON object');
  if (service === 'periodic-payments') checkPeriodic(k, b);
  const amount = service === 'bulk-payments' ? bulkAmount(k, b, product) : paymentAmount(k, b, product);
  const approach = approachOf(k, r);
  const payment: BgPayment = {
    kind: 'pis', service, id: store.newId('payment'), approach, authorisations: [], created: new Date(store.now()),
    product, body: structuredClone(b), amountMinor: amount, transactionStatus: 'RCVD', cancellations: [], ...sent,
  };
  const self = `${r.base}/v1/${service}/${product}/${payment.id}`;
  // Multilevel SCA (a joint account): the TPP starts one authorisation per PSU; the file allows no SCA link in this answer.
  const sca: ReturnType<typeof scaOfCreate> = multilevelStart(k, payment) ? { links: { startAuthorisation: { href: `${self}/authorisations` } } } : scaOfCreate(k, r, payment, self);
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

function paymentOf(k: Xs2aContext, r: Req, service: Service = 'payments'): BgPayment {
  const product = productOf(r, k);
  const p = k.store.payments.get(r.params.paymentId);
  if (!p || p.product !== product || p.service !== service) throw new BgError(404, 'RESOURCE_UNKNOWN', 'no such payment');
  return p;
}

/** The payment as initiated, with its status (the faults bend what is read back). */
function readBack(k: Xs2aContext, p: BgPayment): Record<string, unknown> {
  const body: Record<string, any> = { ...p.body };
  if (p.service === 'periodic-payments' && k.faults.has('bg-periodic-read-back-changed')) body.frequency = body.frequency === 'Monthly' ? 'Weekly' : 'Monthly';
  if (p.service === 'bulk-payments' && k.faults.has('bg-bulk-payments-dropped')) body.payments = (body.payments as unknown[]).slice(0, 1);
  return body;
}

const getPayment = (k: Xs2aContext, r: Req, service: Service = 'payments'): Reply => {
  const p = paymentOf(k, r, service);
  // A standing order with a pain.001 body reads back as its two parts (the file's multipart answer).
  if (p.xml !== undefined && p.standingOrder !== undefined) {
    return {
      status: 200,
      multipart: [
        { name: 'xml_sct', type: 'application/xml', text: p.xml },
        { name: 'json_standingorderType', type: 'application/json', text: k.faults.has('bg-pain001-standing-order-changed') ? changedTerms(p.standingOrder) : p.standingOrder },
      ],
    };
  }
  // A pain.001 payment reads back as the document sent (the file's application/xml answer).
  if (p.xml !== undefined) return { status: 200, xml: k.faults.has('bg-pain001-read-back-changed') ? changedPain001(p.xml) : p.xml };
  return { status: 200, body: { ...readBack(k, p), transactionStatus: k.faults.has('bg-payment-stays-rcvd') ? 'RCVD' : p.transactionStatus } };
};
function getPaymentStatus(k: Xs2aContext, r: Req, service: Service = 'payments'): Reply {
  const p = paymentOf(k, r, service);
  const status = k.faults.has('bg-payment-status-not-iso') ? 'DONE' : p.transactionStatus;
  // A pain.001 payment's status, asked as XML, is a pain.002 report (the file's application/xml answer); JSON otherwise.
  if (p.xml !== undefined && wantsXml(header(r, 'Accept'))) {
    const original = readPain001(p.xml, { unchecked: true });
    const reported = k.faults.has('bg-pain002-status-differs') ? (status === 'RCVD' ? 'ACSC' : 'RCVD') : status;
    return { status: 200, xml: buildPain002(original, reported, new Date(k.store.now()), k.faults.has('bg-pain002-wrong-original') ? { originalMsgId: `${original.msgId.slice(0, 30)}-OTHR` } : {}) };
  }
  return { status: 200, body: { transactionStatus: status } };
}

const paymentSelf = (r: Req, service: Service = 'payments') => `${r.base}/v1/${service}/${r.params.product}/${r.params.paymentId}`;

/** The fault: the standing order's terms with another frequency. */
function changedTerms(terms: string): string {
  const order = JSON.parse(terms) as Record<string, unknown>;
  return JSON.stringify({ ...order, frequency: order.frequency === 'Monthly' ? 'Weekly' : 'Monthly' });
}

/** The fault: another MsgId, and the first amount one cent more. */
function changedPain001(xml: string): string {
  return xml.replace(/(<(?:\w+:)?MsgId>)([^<]*)/, '$1X$2').replace(/(<(?:\w+:)?InstdAmt\b[^>]*>)\s*([0-9]+)(?:\.([0-9]{1,2}))?/, (_m, tag: string, whole: string, frac = '') => {
    const cents = Number(whole) * 100 + Number(frac.padEnd(2, '0')) + 1;
    return `${tag}${(cents / 100).toFixed(2)}`;
  });
}

/** Statuses after which nothing can be cancelled (settled, rejected, cancelled). */
const SETTLED = ['ACSC', 'ACCC', 'RJCT', 'CANC'];

/**
 * DELETE …/{paymentId}: a payment not yet authorised and not scheduled is cancelled at once (204,
 * CANC); a scheduled one (requestedExecutionDate after today, authorised or not) only once the PSU
 * authorises the cancellation (202 with the link to start that); anything else is past cancelling
 * (405 CANCELLATION_INVALID, as the file's METHOD_NOT_ALLOWED_405_PIS_CANC has it).
 */
function cancelPayment(k: Xs2aContext, r: Req, service: Service = 'payments'): Reply {
  const p = paymentOf(k, r, service);
  // A standing order is due on its startDate.
  const due = p.body.requestedExecutionDate ?? p.body.startDate;
  const scheduled = typeof due === 'string' && due > today(k);
  if (SETTLED.includes(p.transactionStatus) || (!scheduled && p.transactionStatus !== 'RCVD')) {
    throw new BgError(405, 'CANCELLATION_INVALID', `the payment (${p.transactionStatus}) can no longer be cancelled`);
  }
  if (!scheduled) {
    if (!k.faults.has('bg-cancelled-payment-not-canc')) p.transactionStatus = 'CANC';
    return { status: 204 };
  }
  p.cancelRequested = true;
  return { status: 202, body: { transactionStatus: p.transactionStatus, _links: { startAuthorisation: { href: `${paymentSelf(r, service)}/cancellation-authorisations` } } } };
}

/**
 * POST …/cancellation-authorisations: the PSU authorises the cancellation by the approach the
 * TPP's headers ask for, whatever approach the payment itself took: on the bank's pages (redirect),
 * in its app (decoupled: PSU-ID) or through the TPP (embedded: PUT …/cancellation-authorisations/{id}).
 */
function startCancellation(k: Xs2aContext, r: Req, service: Service = 'payments'): Reply {
  const p = paymentOf(k, r, service);
  if (!p.cancelRequested || SETTLED.includes(p.transactionStatus)) throw new BgError(409, 'STATUS_INVALID', 'no cancellation of this payment awaits authorisation (DELETE the payment first)');
  const approach = approachWithoutOAuth(k, r, 'a cancellation');
  const a = { ...newAuthorisation(k, r, approach), cancellation: true };
  p.cancellations.push(a);
  const href = `${paymentSelf(r, service)}/cancellation-authorisations/${a.authorisationId}`;
  return {
    status: 201,
    headers: { Location: href, 'ASPSP-SCA-Approach': approachHeader(approach) },
    body: {
      scaStatus: a.scaStatus, authorisationId: a.authorisationId, _links: { ...scaLinks(k, a, href), scaStatus: { href } },
      ...(approach === 'DECOUPLED' ? { psuMessage: 'Please confirm the cancellation in your banking app.' } : {}),
    },
  };
}

function cancellationOf(k: Xs2aContext, r: Req, service: Service) {
  const a = paymentOf(k, r, service).cancellations.find((x) => x.authorisationId === r.params.authorisationId);
  if (!a) throw new BgError(404, 'RESOURCE_UNKNOWN', 'no such cancellation authorisation');
  return a;
}

/**
 * The names a profile's `implements` gives a payment service's create, read and status read; the
 * other operations (cancelling, the authorisations) are one each, at the single payments' path.
 */
const OPERATION_NAMES: Readonly<Record<Service, { create: string; get: string; status: string }>> = {
  payments: { create: 'createPaymentConsent', get: 'getPayment', status: 'getPaymentStatus' },
  'periodic-payments': { create: 'createPeriodicPayment', get: 'getPeriodicPayment', status: 'getPeriodicPaymentStatus' },
  'bulk-payments': { create: 'createBulkPayment', get: 'getBulkPayment', status: 'getBulkPaymentStatus' },
};

/** The routes of one payment service, in matching order. */
function routesOf(service: Service): BgRoute[] {
  const at = `/v1/${service}/:product`;
  const of = (k: Xs2aContext, r: Req) => paymentOf(k, r, service);
  const names = OPERATION_NAMES[service];
  const single = (name: string) => (service === 'payments' ? name : undefined);
  return [
    { ...route(A, 'POST', at, (k, r) => createPayment(k, r, service), names.create), xml: true },
    route(A, 'GET', `${at}/:paymentId`, (k, r) => getPayment(k, r, service), names.get),
    route(A, 'GET', `${at}/:paymentId/status`, (k, r) => getPaymentStatus(k, r, service), names.status),
    route(A, 'DELETE', `${at}/:paymentId`, (k, r) => cancelPayment(k, r, service), single('cancelPayment')),
    route(A, 'POST', `${at}/:paymentId/cancellation-authorisations`, (k, r) => startCancellation(k, r, service), single('startPaymentCancellationAuthorisation')),
    route(A, 'GET', `${at}/:paymentId/cancellation-authorisations`, (k, r) => ({
      status: 200, body: { authorisationIds: k.faults.has('bg-cancellation-authorisations-unlisted') ? [] : of(k, r).cancellations.map((a) => a.authorisationId) },
    }), single('listPaymentCancellationAuthorisations')),
    route(A, 'GET', `${at}/:paymentId/cancellation-authorisations/:authorisationId`, (k, r) => ({ status: 200, body: { scaStatus: cancellationOf(k, r, service).scaStatus } }), single('getPaymentCancellationScaStatus')),
    route(A, 'POST', `${at}/:paymentId/authorisations`, (k, r) => startAuthorisationWithData(k, r, of(k, r), paymentSelf(r, service)), single('startPaymentAuthorisation')),
    route(A, 'GET', `${at}/:paymentId/authorisations`, (k, r) => ({ status: 200, body: { authorisationIds: listedAuthorisations(k, of(k, r)) } }), single('listPaymentAuthorisations')),
    route(A, 'GET', `${at}/:paymentId/authorisations/:authorisationId`, (k, r) => scaStatus(k, of(k, r), r.params.authorisationId), single('getPaymentScaStatus')),
    route(A, 'PUT', `${at}/:paymentId/authorisations/:authorisationId`, (k, r) => updatePsuData(k, r, of(k, r), paymentSelf(r, service)), single('updatePaymentPsuData')),
  ];
}

/** The routes of payment initiation (single payments, standing orders, bulks), in matching order. */
export const PAYMENT_ROUTES: BgRoute[] = SERVICES.flatMap(routesOf);
