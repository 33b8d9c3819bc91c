/**
 * The payment families of UK Read/Write v3.1.11 beyond the domestic payment, served only in the UK
 * layout (below /pisp): domestic scheduled payments, domestic standing orders, international
 * payments (scheduled and standing orders too) and file payments — consents, their funds check
 * where the standard has one, the file upload and download, orders, payment details and report
 * files, with the faults that bend them. Every answer with a body is signed, every POST must be
 * (x-jws-signature); creates are idempotent; an order carries its consent's Initiation and Risk
 * unchanged and consumes the consent.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FaultDeclaration } from '../fault-declaration.ts';
import { availableBalance, parseMoney } from '../fixtures.ts';
import type { AccountRef, PisConsent, Store } from '../store.ts';
import { sign, verify as verifyPayment } from './pis.ts';
import {
  A, ApiError, authenticate, clientCredentials, forbidden, idempotent, invalid, isObject, iso, links, missing, notFound,
  parseDateTime, requireAccountRef, requireAmount, requireText, route, sameJson, status, unauthorised,
  type Layout, type Reply, type Req, type ResourceContext, type UkRoute,
} from './plumbing.ts';

/**
 * The faults of these routes (UK layouts only: a run with `--standard uk-3.1` shows them). Those that
 * name no `standard` bend the v4.0 layout alike (the same routes), so a `--standard uk-4.0` run shows them too.
 */
export const PIS_FAMILY_FAULTS = [
  { name: 'family-order-id-missing', rule: 'UKPIS-01', description: 'the orders of the payment families beyond the domestic payment answer without their id (DomesticScheduledPaymentId, InternationalPaymentId, …)', kind: 'rule', standard: 'uk-3.1' },
  { name: 'scheduled-offset-refused', rule: 'UKPIS-02', description: 'a scheduled payment consent whose RequestedExecutionDateTime has a UTC offset other than Z is refused', kind: 'rule', standard: 'uk-3.1' },
  { name: 'order-initiation-unchecked', rule: 'UKPIS-03', description: 'an order of the payment families whose Initiation or Risk differs from its consent\'s is accepted (the consent\'s are kept)', kind: 'rule', standard: 'uk-3.1' },
  { name: 'frequency-unchecked', rule: 'UKPIS-04', description: 'a standing order consent whose Frequency breaks the standard\'s grammar is accepted', kind: 'rule', standard: 'uk-3.1' },
  { name: 'v4-frequency-code-rewritten', rule: 'UKPIS-04', description: 'UK v4.0: a standing order consent whose Frequency.Type is an ISO 20022 code (MNTH, WEEK…) is kept as the bank\'s own EvryDay, its CountPerPeriod and PointInTime dropped', kind: 'rule', standard: 'uk-4.0' },
  { name: 'agreed-rate-ignored', rule: 'UKPIS-05', description: 'an international consent with an Agreed exchange rate answers with the bank\'s own rate and no contract', kind: 'rule', standard: 'uk-3.1' },
  { name: 'unagreed-rate-contract-accepted', rule: 'UKPIS-05', description: 'an international consent whose Actual or Indicative exchange rate names an ExchangeRate or a ContractIdentification of its own is accepted', kind: 'rule' },
  { name: 'file-hash-unchecked', rule: 'UKPIS-06', description: 'a payment file is accepted whatever its FileHash, NumberOfTransactions and ControlSum', kind: 'rule', standard: 'uk-3.1' },
  { name: 'file-count-unchecked', rule: 'UKPIS-06', description: 'a payment file whose number of payments is not its consent\'s NumberOfTransactions is accepted (its FileHash and ControlSum are checked)', kind: 'rule' },
  { name: 'file-control-sum-unchecked', rule: 'UKPIS-06', description: 'a payment file whose amounts do not add up to its consent\'s ControlSum is accepted (its FileHash and NumberOfTransactions are checked)', kind: 'rule' },
  { name: 'family-consent-not-idempotent', rule: 'UKPIS-07', description: 'a consent of the payment families sent again under the same x-idempotency-key creates a second consent', kind: 'rule', standard: 'uk-3.1' },
  { name: 'family-order-twice', rule: 'UKPIS-08', description: 'a consumed consent of the payment families accepts a second order (another x-idempotency-key)', kind: 'rule', standard: 'uk-3.1' },
  { name: 'rejected-family-consent-accepts-orders', rule: 'UKPIS-09', description: 'an order naming a consent the PSU rejected is accepted under the PISP\'s client-credentials token', kind: 'rule', standard: 'uk-3.1' },
  { name: 'family-signature-unchecked', rule: 'UKPIS-10', description: 'the consents and orders of the payment families are accepted with a missing or broken x-jws-signature', kind: 'rule', standard: 'uk-3.1' },
  { name: 'family-order-signature-unchecked', rule: 'UKPIS-10', description: 'the orders of the payment families beyond the domestic payment are accepted without an x-jws-signature (their consents\' signatures are checked)', kind: 'rule' },
  { name: 'file-report-empty', rule: 'UKPIS-11', description: 'a file payment\'s report file (GET /file-payments/{FilePaymentId}/report-file) answers 200 with an empty body', kind: 'rule' },
  { name: 'payment-details-empty', rule: 'UKPIS-11', description: 'the payment details of the payment families\' orders answer 200 with no PaymentStatus (a SHOULD: the standard lets the list be empty)', kind: 'rule', level: 'SHOULD' },
] as const satisfies readonly FaultDeclaration[];

type Family = 'domestic-scheduled' | 'domestic-standing-order' | 'international' | 'international-scheduled' | 'international-standing-order' | 'file';
type Initiation = Record<string, any>;

interface FamilySpec {
  consents: string;
  orders: string;
  idField: string;
  /** The consent and the order carry Risk (a file payment has none). */
  risk: boolean;
  /** The consent's Data.Permission ("Create") is required. */
  permission: boolean;
  /** The standard has GET …/{ConsentId}/funds-confirmation. */
  funds: boolean;
  /** The bank quotes an exchange rate (international single payments). */
  exchange: boolean;
  /** The status of a new order. */
  orderStatus: string;
  check: (k: ResourceContext, i: Initiation, layout: Layout) => void;
}

const FREQUENCY = /^(EvryDay)$|^(EvryWorkgDay)$|^(IntrvlDay:((0[2-9])|([1-2][0-9])|3[0-1]))$|^(IntrvlWkDay:0[1-9]:0[1-7])$|^(WkInMnthDay:0[1-5]:0[1-7])$|^(IntrvlMnthDay:(0[1-6]|12|24):(-0[1-5]|0[1-9]|[12][0-9]|3[01]))$|^(QtrDay:(ENGLISH|SCOTTISH|RECEIVED))$/;
const P = 'Data.Initiation';

function requireDate(k: ResourceContext, i: Initiation, field: string, required: boolean): void {
  if (i[field] === undefined) {
    if (required) throw missing(`${P}.${field}`);
    return;
  }
  if (parseDateTime(i[field]) === undefined || !/(Z|[+-]\d{2}:\d{2})$/i.test(i[field])) {
    throw new ApiError(400, 'UK.OBIE.Field.InvalidDate', `${P}.${field} must be an ISO 8601 date-time with a time zone`, `${P}.${field}`);
  }
  if (field === 'RequestedExecutionDateTime' && k.faults.has('scheduled-offset-refused') && !/Z$/i.test(i[field])) {
    throw new ApiError(400, 'UK.OBIE.Field.InvalidDate', `${P}.${field} must be in UTC`, `${P}.${field}`);
  }
}

function requireCreditor(i: Initiation): void {
  requireAccountRef(i.CreditorAccount, `${P}.CreditorAccount`);
  if (i.CreditorAccount.Name === undefined) throw missing(`${P}.CreditorAccount.Name`);
  if (i.DebtorAccount !== undefined) requireAccountRef(i.DebtorAccount, `${P}.DebtorAccount`);
}

/**
 * v4.0 keeps a standing order's schedule in MandateRelatedInformation (FACTS-v4 §3.4, §4.4): the
 * Frequency an object whose Type is an ISO code (OBFrequency6Code) or the v3.1.11 grammar (which
 * v4.0 also lets say NotKnown), the first and final dates beside it, none of them required but
 * the Frequency.
 */
const FREQUENCY_CODES_V4 = ['ADHO', 'YEAR', 'DAIL', 'FRTN', 'INDA', 'MNTH', 'QURT', 'MIAN', 'WEEK', 'WODL', 'FOWK', 'TWMH', 'FOMH', 'FIMH', 'ALMH', 'NONE'];
const MANDATE = `${P}.MandateRelatedInformation`;

function requireScheduleV4(k: ResourceContext, i: Initiation): void {
  const m = i.MandateRelatedInformation;
  if (m === undefined) throw missing(MANDATE);
  if (!isObject(m)) throw invalid(MANDATE, 'must be an object');
  if (!isObject(m.Frequency)) throw missing(`${MANDATE}.Frequency`);
  const type = m.Frequency.Type;
  if (type === undefined) throw missing(`${MANDATE}.Frequency.Type`);
  const known = typeof type === 'string' && (FREQUENCY_CODES_V4.includes(type) || type === 'NotKnown' || FREQUENCY.test(type));
  if (!k.faults.has('frequency-unchecked') && !known) {
    throw new ApiError(400, 'UK.OBIE.Field.Invalid', `${MANDATE}.Frequency.Type is neither an ISO frequency code (MNTH, WEEK, …) nor the standard's grammar (EvryDay, …)`, `${MANDATE}.Frequency.Type`);
  }
  // The fault: an ISO code taken, but kept in the bank's own words.
  if (k.faults.has('v4-frequency-code-rewritten') && FREQUENCY_CODES_V4.includes(type as string)) m.Frequency = { Type: 'EvryDay' };
  for (const f of ['FirstPaymentDateTime', 'RecurringPaymentDateTime', 'FinalPaymentDateTime']) requireDate(k, m, f, false);
  if (i.NumberOfPayments !== undefined && m.FinalPaymentDateTime !== undefined) {
    throw new ApiError(400, 'UK.OBIE.Field.Unexpected', `${P}.NumberOfPayments and ${MANDATE}.FinalPaymentDateTime cannot both be given`, `${MANDATE}.FinalPaymentDateTime`);
  }
}

/** A standing order's schedule, where the layout's version keeps it. */
function requireSchedule(k: ResourceContext, i: Initiation, dates: readonly string[], layout: Layout): void {
  if (layout === 'uk-4.0') return requireScheduleV4(k, i);
  requireFrequency(k, i);
  requireDate(k, i, 'FirstPaymentDateTime', true);
  for (const f of dates) requireDate(k, i, f, false);
}

function requireFrequency(k: ResourceContext, i: Initiation): void {
  if (i.Frequency === undefined) throw missing(`${P}.Frequency`);
  if (!k.faults.has('frequency-unchecked') && (typeof i.Frequency !== 'string' || !FREQUENCY.test(i.Frequency))) {
    throw new ApiError(400, 'UK.OBIE.Field.Invalid', `${P}.Frequency does not follow the standard's grammar (EvryDay, IntrvlMnthDay:01:15, …)`, `${P}.Frequency`);
  }
  // The standard ends a standing order by a count or by a date, not both.
  if (i.NumberOfPayments !== undefined && i.FinalPaymentDateTime !== undefined) {
    throw new ApiError(400, 'UK.OBIE.Field.Unexpected', `${P}.NumberOfPayments and ${P}.FinalPaymentDateTime cannot both be given`, `${P}.FinalPaymentDateTime`);
  }
}

function requireCurrency(i: Initiation, field: string): void {
  if (i[field] === undefined) throw missing(`${P}.${field}`);
  if (typeof i[field] !== 'string' || !/^[A-Z]{3}$/.test(i[field])) throw invalid(`${P}.${field}`, 'must match ^[A-Z]{3,3}$');
}

/**
 * Agreed names its rate and contract; Actual and Indicative leave the rate to the bank, so they name
 * neither (v3.1.11 International Payment Consents, Exchange Rate Information: the PISP must not
 * specify ExchangeRate or ContractIdentification with an Actual or Indicative RateType).
 */
function requireExchangeRate(k: ResourceContext, i: Initiation): void {
  const x = i.ExchangeRateInformation;
  if (x === undefined) return;
  const at = `${P}.ExchangeRateInformation`;
  if (!isObject(x)) throw invalid(at, 'must be an object');
  requireCurrency(x, 'UnitCurrency');
  if (!['Actual', 'Agreed', 'Indicative'].includes(x.RateType)) throw invalid(`${at}.RateType`, 'must be Actual, Agreed or Indicative');
  if (x.RateType === 'Agreed') {
    if (typeof x.ExchangeRate !== 'number' || !(x.ExchangeRate > 0)) throw missing(`${at}.ExchangeRate`);
    if (typeof x.ContractIdentification !== 'string' || x.ContractIdentification === '') throw missing(`${at}.ContractIdentification`);
  } else if ((x.ExchangeRate !== undefined || x.ContractIdentification !== undefined) && !k.faults.has('unagreed-rate-contract-accepted')) {
    throw new ApiError(400, 'UK.OBIE.Field.Unexpected', `${at}: a ${x.RateType} rate takes no ExchangeRate or ContractIdentification`, at);
  }
}

function single(i: Initiation, endToEnd: boolean): void {
  requireText(i, 'InstructionIdentification', `${P}.InstructionIdentification`, 35);
  if (endToEnd || i.EndToEndIdentification !== undefined) requireText(i, 'EndToEndIdentification', `${P}.EndToEndIdentification`, 35);
  requireAmount(i.InstructedAmount, `${P}.InstructedAmount`);
  requireCreditor(i);
}

const FAMILIES: Readonly<Record<Family, FamilySpec>> = {
  'domestic-scheduled': {
    consents: 'domestic-scheduled-payment-consents', orders: 'domestic-scheduled-payments', idField: 'DomesticScheduledPaymentId',
    risk: true, permission: true, funds: false, exchange: false, orderStatus: 'InitiationPending',
    check: (k, i) => {
      single(i, false);
      requireDate(k, i, 'RequestedExecutionDateTime', true);
    },
  },
  'domestic-standing-order': {
    consents: 'domestic-standing-order-consents', orders: 'domestic-standing-orders', idField: 'DomesticStandingOrderId',
    risk: true, permission: true, funds: false, exchange: false, orderStatus: 'InitiationCompleted',
    check: (k, i, layout) => {
      requireSchedule(k, i, ['RecurringPaymentDateTime', 'FinalPaymentDateTime'], layout);
      requireAmount(i.FirstPaymentAmount, `${P}.FirstPaymentAmount`);
      for (const f of ['RecurringPaymentAmount', 'FinalPaymentAmount']) if (i[f] !== undefined) requireAmount(i[f], `${P}.${f}`);
      requireCreditor(i);
    },
  },
  international: {
    consents: 'international-payment-consents', orders: 'international-payments', idField: 'InternationalPaymentId',
    risk: true, permission: false, funds: true, exchange: true, orderStatus: 'AcceptedSettlementInProcess',
    check: (k, i) => {
      single(i, true);
      requireCurrency(i, 'CurrencyOfTransfer');
      requireExchangeRate(k, i);
    },
  },
  'international-scheduled': {
    consents: 'international-scheduled-payment-consents', orders: 'international-scheduled-payments', idField: 'InternationalScheduledPaymentId',
    risk: true, permission: true, funds: true, exchange: true, orderStatus: 'InitiationPending',
    check: (k, i) => {
      single(i, false);
      requireDate(k, i, 'RequestedExecutionDateTime', true);
      requireCurrency(i, 'CurrencyOfTransfer');
      requireExchangeRate(k, i);
    },
  },
  'international-standing-order': {
    consents: 'international-standing-order-consents', orders: 'international-standing-orders', idField: 'InternationalStandingOrderId',
    risk: true, permission: true, funds: false, exchange: false, orderStatus: 'InitiationCompleted',
    check: (k, i, layout) => {
      requireSchedule(k, i, ['FinalPaymentDateTime'], layout);
      requireCurrency(i, 'CurrencyOfTransfer');
      requireAmount(i.InstructedAmount, `${P}.InstructedAmount`);
      requireCreditor(i);
    },
  },
  file: {
    consents: 'file-payment-consents', orders: 'file-payments', idField: 'FilePaymentId',
    risk: false, permission: false, funds: false, exchange: false, orderStatus: 'InitiationPending',
    check: (k, i) => {
      requireText(i, 'FileType', `${P}.FileType`, 200);
      requireText(i, 'FileHash', `${P}.FileHash`, 44);
      if (i.NumberOfTransactions !== undefined && (typeof i.NumberOfTransactions !== 'string' || !/^[0-9]{1,15}$/.test(i.NumberOfTransactions))) throw invalid(`${P}.NumberOfTransactions`, 'must be 1 to 15 digits');
      if (i.ControlSum !== undefined && typeof i.ControlSum !== 'number') throw invalid(`${P}.ControlSum`, 'must be a number');
      requireDate(k, i, 'RequestedExecutionDateTime', false);
      if (i.DebtorAccount !== undefined) requireAccountRef(i.DebtorAccount, `${P}.DebtorAccount`);
    },
  },
};

/** Two letters before each order's UUID: the standard's ids are at most 40 characters. */
const ID_PREFIXES: Readonly<Record<Family, string>> = {
  'domestic-scheduled': 'ds', 'domestic-standing-order': 'so', international: 'ip', 'international-scheduled': 'is', 'international-standing-order': 'io', file: 'fp',
};

/** The file types this bank reads: the standard's JSON file of domestic payments (v4.0 renamed it: FACTS-v4 §3.4). */
const FILE_TYPES = ['UK.OBIE.PaymentInitiation.3.1'];
const FILE_TYPES_V4 = ['UK.OBIE.PaymentInitiation.4.0'];

/** A consent of a family: the domestic consent's record, with its family, file and quoted rate. */
type FamilyConsent = PisConsent & {
  family: Family;
  exchangeRate?: Record<string, unknown>;
  file?: string;
};

interface FamilyOrder {
  id: string;
  family: Family;
  ConsentId: string;
  clientId: string;
  Status: string;
  CreationDateTime: Date;
  StatusUpdateDateTime: Date;
  Initiation: Initiation;
  Debtor?: AccountRef;
  exchangeRate?: Record<string, unknown>;
}

/** The orders of each run's store (the store of the domestic payment knows only DomesticPaymentId). */
const ORDERS = new WeakMap<Store, Map<string, FamilyOrder>>();
function ordersOf(store: Store): Map<string, FamilyOrder> {
  let m = ORDERS.get(store);
  if (!m) ORDERS.set(store, (m = new Map()));
  return m;
}

// ---- signatures: the domestic routes' (their faults bend every payment answer and request alike) --

/** The domestic routes' check of the TPP's x-jws-signature, unless the families' own fault skips it. */
async function verify(k: ResourceContext, raw: IncomingMessage, bodyText: string): Promise<void> {
  if (k.faults.has('family-signature-unchecked')) return;
  await verifyPayment(k, raw, bodyText);
}

/** An order's signature: checked as a consent's, but an order without one passes under its own fault. */
async function verifyOrder(k: ResourceContext, raw: IncomingMessage, bodyText: string): Promise<void> {
  if (k.faults.has('family-order-signature-unchecked') && raw.headers['x-jws-signature'] === undefined) return;
  await verify(k, raw, bodyText);
}

// ---- representations ---------------------------------------------------------------------

/** The rate the bank quotes: the agreed one as agreed, else its own (an Indicative one for half an hour). */
function quote(k: ResourceContext, i: Initiation): Record<string, unknown> | undefined {
  const x = i.ExchangeRateInformation;
  if (!isObject(x)) return undefined;
  if (x.RateType === 'Agreed' && !k.faults.has('agreed-rate-ignored')) return { ...x };
  const own = { UnitCurrency: x.UnitCurrency, ExchangeRate: 1.1634, RateType: x.RateType === 'Agreed' ? 'Actual' : x.RateType };
  return x.RateType === 'Indicative' ? { ...own, ExpirationDateTime: iso(new Date(k.store.now() + 30 * 60_000)) } : own;
}

function consentBody(c: FamilyConsent, self: string) {
  const spec = FAMILIES[c.family];
  const status = c.family === 'file' && c.file === undefined && c.Status === 'AwaitingAuthorisation' ? 'AwaitingUpload' : c.Status;
  return {
    Data: {
      ConsentId: c.ConsentId, CreationDateTime: iso(c.CreationDateTime), Status: status, StatusUpdateDateTime: iso(c.StatusUpdateDateTime),
      ...(spec.permission ? { Permission: 'Create' } : {}),
      ...(c.exchangeRate ? { ExchangeRateInformation: c.exchangeRate } : {}),
      Initiation: c.Initiation,
      ...(c.Debtor ? { Debtor: c.Debtor } : {}),
    },
    ...(spec.risk ? { Risk: c.Risk } : {}),
    Links: { Self: self },
    Meta: {},
  };
}

function orderBody(k: ResourceContext, o: FamilyOrder, self: string) {
  const hideId = k.faults.has('family-order-id-missing');
  return {
    Data: {
      ...(hideId ? {} : { [FAMILIES[o.family].idField]: o.id }),
      ConsentId: o.ConsentId, CreationDateTime: iso(o.CreationDateTime), Status: o.Status, StatusUpdateDateTime: iso(o.StatusUpdateDateTime),
      ...(o.exchangeRate ? { ExchangeRateInformation: o.exchangeRate } : {}),
      Initiation: o.Initiation,
      ...(o.Debtor ? { Debtor: o.Debtor } : {}),
    },
    Links: { Self: self },
    Meta: {},
  };
}

// ---- handlers ------------------------------------------------------------------------------

/** POST /{family}-consents: client credentials, the family's Initiation checked, idempotent. */
function createConsent(family: Family) {
  const spec = FAMILIES[family];
  return async function createFamilyConsent(k: ResourceContext, r: Req): Promise<Reply> {
    const auth = await clientCredentials(k, r, 'payments');
    const data = r.body?.Data;
    if (!isObject(data)) throw missing('Data');
    if (spec.permission) {
      if (data.Permission === undefined) throw missing('Data.Permission');
      if (data.Permission !== 'Create') throw invalid('Data.Permission', 'must be Create');
    }
    const initiation = data.Initiation;
    if (!isObject(initiation)) throw missing(P);
    spec.check(k, initiation, r.layout);
    const fileTypes = r.layout === 'uk-4.0' ? FILE_TYPES_V4 : FILE_TYPES;
    if (family === 'file' && !fileTypes.includes(initiation.FileType)) {
      throw new ApiError(400, 'UK.OBIE.Unsupported.FileType', `${P}.FileType: this bank reads ${fileTypes.join(', ')}`, `${P}.FileType`);
    }
    if (spec.risk) {
      if (r.body.Risk === undefined) throw missing('Risk');
      if (!isObject(r.body.Risk)) throw invalid('Risk', 'must be an object');
    }
    const make = () => k.store.add<FamilyConsent>({
      kind: 'pis', family, clientId: auth.clientId, Status: 'AwaitingAuthorisation',
      Initiation: initiation as PisConsent['Initiation'], Risk: spec.risk ? r.body.Risk : {},
      ...(spec.exchange ? { exchangeRate: quote(k, initiation) } : {}),
    } as Omit<FamilyConsent, 'ConsentId' | 'CreationDateTime' | 'StatusUpdateDateTime' | 'decided'>);
    // Under the fault a replay is a new consent; the key is still checked and required.
    const consent = k.faults.has('family-consent-not-idempotent')
      ? idempotent(k, r, auth.clientId, `${spec.consents} ${randomUUID()}`, true, make)
      : idempotent(k, r, auth.clientId, spec.consents, true, make);
    return { status: status(k, r, true), body: consentBody(consent, `${r.self}/${consent.ConsentId}`) };
  };
}

/** A consent of this family read by its client (client credentials, or the PSU token of that consent). */
async function ownConsent(k: ResourceContext, r: Req, family: Family): Promise<FamilyConsent> {
  const auth = await authenticate(k, r);
  if (!auth) throw unauthorised('an access token is required');
  if (!auth.scopes.includes('payments')) throw forbidden('the access token lacks the scope payments');
  const c = k.store.consents.get(r.params.consentId) as FamilyConsent | undefined;
  if (!c || c.kind !== 'pis' || c.family !== family || c.clientId !== auth.clientId) throw notFound('consent', 'ConsentId');
  if (auth.kind === 'code' && auth.consent?.ConsentId !== c.ConsentId) throw forbidden('the access token was authorised for another consent');
  return c;
}

function getConsent(family: Family) {
  return async function getFamilyConsent(k: ResourceContext, r: Req): Promise<Reply> {
    return { status: 200, body: consentBody(await ownConsent(k, r, family), r.self) };
  };
}

/** GET …/{ConsentId}/funds-confirmation: the PSU's token of an authorised consent only. */
function getFunds(family: Family) {
  return async function getFamilyFunds(k: ResourceContext, r: Req): Promise<Reply> {
    const auth = await authenticate(k, r);
    if (!auth) throw unauthorised('an access token is required');
    if (auth.kind !== 'code') throw forbidden('the funds check needs the PSU\'s authorization-code token');
    const c = await ownConsent(k, r, family);
    if (c.Status !== 'Authorised') throw new ApiError(400, 'UK.OBIE.Resource.InvalidConsentStatus', `the consent is ${c.Status}`, 'ConsentId');
    const account = k.store.accountByRef(c.Debtor ?? c.Initiation.DebtorAccount);
    const wanted = parseMoney(c.Initiation.InstructedAmount?.Amount) ?? Infinity;
    return {
      status: 200,
      body: { Data: { FundsAvailableResult: { FundsAvailableDateTime: iso(new Date(k.store.now())), FundsAvailable: account ? wanted <= availableBalance(account) : false } }, Links: links(r), Meta: {} },
    };
  };
}

/** What a payment file says of itself: its payments' count and the total of their amounts. */
function fileFacts(text: string): { count: number; sum: number } | undefined {
  try {
    const payments = JSON.parse(text)?.Data?.DomesticPayments;
    if (!Array.isArray(payments)) return undefined;
    const amounts = payments.map((p: any) => p?.InstructedAmount?.Amount);
    if (!amounts.every((a: unknown) => typeof a === 'string' && /^\d{1,13}(\.\d{1,5})?$/.test(a))) return undefined;
    // In units of the standard's finest decimal (5 places), so that the total has no binary rounding.
    const units = amounts.reduce((s: bigint, a: string) => s + BigInt(Math.round(Number(a) * 100_000)), 0n);
    return { count: payments.length, sum: Number(units) / 100_000 };
  } catch {
    return undefined;
  }
}

/** POST /file-payment-consents/{ConsentId}/file: the file its consent describes, once, before authorisation. */
async function uploadFile(k: ResourceContext, r: Req): Promise<Reply> {
  await clientCredentials(k, r, 'payments');
  const c = await ownConsent(k, r, 'file');
  if (c.file !== undefined || c.Status !== 'AwaitingAuthorisation') throw new ApiError(400, 'UK.OBIE.Resource.InvalidConsentStatus', 'the file of this consent was already uploaded', 'ConsentId');
  const i = c.Initiation as Initiation;
  if (!k.faults.has('file-hash-unchecked')) {
    const hash = createHash('sha256').update(r.bodyText, 'utf8').digest('base64');
    if (hash !== i.FileHash) throw new ApiError(400, 'UK.OBIE.Field.Invalid', 'the file does not match Data.Initiation.FileHash of its consent', 'FileHash');
    const facts = fileFacts(r.bodyText);
    if (!facts) throw new ApiError(400, 'UK.OBIE.Field.Invalid', `the file is not a ${FILE_TYPES[0]} file`, 'File');
    if (i.NumberOfTransactions !== undefined && Number(i.NumberOfTransactions) !== facts.count && !k.faults.has('file-count-unchecked')) throw new ApiError(400, 'UK.OBIE.Field.Invalid', `the file holds ${facts.count} payments, not the consent's NumberOfTransactions ${i.NumberOfTransactions}`, 'NumberOfTransactions');
    if (i.ControlSum !== undefined && Math.abs(i.ControlSum - facts.sum) > 1e-6 && !k.faults.has('file-control-sum-unchecked')) throw new ApiError(400, 'UK.OBIE.Field.Invalid', `the file's amounts total ${facts.sum}, not the consent's ControlSum ${i.ControlSum}`, 'ControlSum');
  }
  c.file = r.bodyText;
  k.store.setStatus(c, 'AwaitingAuthorisation');
  return { status: 200 };
}

/** GET /file-payment-consents/{ConsentId}/file: the file, as uploaded. */
async function downloadFile(k: ResourceContext, r: Req): Promise<Reply> {
  const c = await ownConsent(k, r, 'file');
  if (c.file === undefined) throw notFound('file', 'ConsentId');
  return { status: 200, body: JSON.parse(c.file) };
}

/** POST /{family orders}: the PSU's token for the consent, its Initiation and Risk unchanged, once. */
function submitOrder(family: Family) {
  const spec = FAMILIES[family];
  return async function submitFamilyOrder(k: ResourceContext, r: Req): Promise<Reply> {
    const { store, faults } = k;
    const auth = await authenticate(k, r);
    if (!auth) throw unauthorised('an access token is required');
    const data = r.body?.Data;
    if (!isObject(data)) throw missing('Data');
    const consentId = requireText(data, 'ConsentId', 'Data.ConsentId', 128);
    let consent: FamilyConsent | undefined;
    if (auth.kind === 'code' && auth.scopes.includes('payments')) consent = auth.consent as FamilyConsent | undefined;
    else {
      const named = store.consents.get(consentId) as FamilyConsent | undefined;
      // Under the fault the bank takes the PISP's own token for a consent the PSU rejected.
      const lax = faults.has('rejected-family-consent-accepts-orders') && auth.kind === 'cc' && named?.clientId === auth.clientId && named.Status === 'Rejected';
      if (!lax) throw forbidden('an order needs the PSU\'s authorization-code token, not a client-credentials token');
      consent = named;
      store.setStatus(named!, 'Authorised');
    }
    if (!consent || consent.kind !== 'pis' || consent.family !== family) throw forbidden(`the access token was not issued for a ${family} consent`);
    if (consentId !== consent.ConsentId) throw new ApiError(400, 'UK.OBIE.Resource.ConsentMismatch', 'Data.ConsentId is not the consent this token was authorised for', 'Data.ConsentId');
    if (!isObject(data.Initiation)) throw missing(P);
    if (spec.risk && r.body.Risk === undefined) throw missing('Risk');
    if (!faults.has('order-initiation-unchecked')) {
      if (!sameJson(data.Initiation, consent.Initiation)) throw new ApiError(400, 'UK.OBIE.Resource.ConsentMismatch', 'Data.Initiation differs from the consent\'s', P);
      if (spec.risk && !sameJson(r.body.Risk, consent.Risk)) throw new ApiError(400, 'UK.OBIE.Resource.ConsentMismatch', 'Risk differs from the consent\'s', 'Risk');
    }
    const key = r.headers['x-idempotency-key'];
    if (typeof key !== 'string' || key === '') throw new ApiError(400, 'UK.OBIE.Header.Missing', 'x-idempotency-key is required', 'x-idempotency-key');
    if (key.length > 40) throw new ApiError(400, 'UK.OBIE.Header.Invalid', 'x-idempotency-key must be at most 40 characters', 'x-idempotency-key');
    const orders = ordersOf(store);
    const slot = `${auth.clientId} ${spec.orders} ${key}`;
    const seen = store.idempotency.get(slot);
    if (seen) {
      if (seen.body !== JSON.stringify(r.body)) throw new ApiError(400, 'UK.OBIE.Header.Invalid', 'x-idempotency-key was already used with a different body', 'x-idempotency-key');
      const earlier = orders.get(seen.id);
      if (earlier) return { status: status(k, r, true), body: orderBody(k, earlier, `${r.self}/${earlier.id}`) };
    }
    const twice = faults.has('family-order-twice');
    if (consent.Status !== 'Authorised' && !(twice && consent.Status === 'Consumed')) {
      throw new ApiError(400, 'UK.OBIE.Resource.InvalidConsentStatus', `the consent is ${consent.Status}`, 'Data.ConsentId');
    }
    if (family === 'file' && consent.file === undefined) throw new ApiError(400, 'UK.OBIE.Resource.InvalidConsentStatus', 'the consent\'s file was never uploaded', 'Data.ConsentId');
    const now = new Date(store.now());
    const debtor = consent.Debtor ?? consent.Initiation.DebtorAccount;
    const order: FamilyOrder = {
      id: `${ID_PREFIXES[family]}-${randomUUID()}`, family, ConsentId: consent.ConsentId, clientId: auth.clientId,
      Status: spec.orderStatus, CreationDateTime: now, StatusUpdateDateTime: now, Initiation: consent.Initiation,
      ...(debtor ? { Debtor: debtor } : {}),
      ...(consent.exchangeRate ? { exchangeRate: consent.exchangeRate } : {}),
    };
    orders.set(order.id, order);
    store.idempotency.set(slot, { body: JSON.stringify(r.body), id: order.id });
    store.setStatus(consent, 'Consumed');
    return { status: status(k, r, true), body: orderBody(k, order, `${r.self}/${order.id}`) };
  };
}

/** An order of this family read by its client (client credentials, or the PSU token of its consent). */
async function ownOrder(k: ResourceContext, r: Req, family: Family): Promise<FamilyOrder> {
  const auth = await authenticate(k, r);
  if (!auth) throw unauthorised('an access token is required');
  if (!auth.scopes.includes('payments')) throw forbidden('the access token lacks the scope payments');
  const o = ordersOf(k.store).get(r.params.paymentOrderId);
  if (!o || o.family !== family || o.clientId !== auth.clientId) throw notFound('payment order', FAMILIES[family].idField);
  if (auth.kind === 'code' && auth.consent?.ConsentId !== o.ConsentId) throw forbidden('the access token was authorised for another payment');
  return o;
}

function getOrder(family: Family) {
  return async function getFamilyOrder(k: ResourceContext, r: Req): Promise<Reply> {
    return { status: 200, body: orderBody(k, await ownOrder(k, r, family), r.self) };
  };
}

const DETAIL_STATUS: Record<string, string> = {
  InitiationPending: 'Pending', InitiationCompleted: 'AcceptedSettlementCompleted', AcceptedSettlementInProcess: 'AcceptedSettlementInProcess',
};

function getDetails(family: Family) {
  return async function getFamilyOrderDetails(k: ResourceContext, r: Req): Promise<Reply> {
    const o = await ownOrder(k, r, family);
    // The fault answers details that say nothing: no status of the payment at all.
    if (k.faults.has('payment-details-empty')) return { status: 200, body: { Data: {}, Links: links(r), Meta: {} } };
    return {
      status: 200,
      body: { Data: { PaymentStatus: [{ PaymentTransactionId: `${o.id}-1`, Status: DETAIL_STATUS[o.Status] ?? 'Pending', StatusUpdateDateTime: iso(o.StatusUpdateDateTime) }] }, Links: links(r), Meta: {} },
    };
  };
}

/** GET /file-payments/{FilePaymentId}/report-file: each payment of the file and where it stands. */
async function getReport(k: ResourceContext, r: Req): Promise<Reply> {
  const o = await ownOrder(k, r, 'file');
  if (k.faults.has('file-report-empty')) return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } };
  const c = k.store.consents.get(o.ConsentId) as FamilyConsent | undefined;
  const payments = (c?.file ? JSON.parse(c.file)?.Data?.DomesticPayments : undefined) ?? [];
  return {
    status: 200,
    body: { Data: { FilePaymentId: o.id, DomesticPayments: payments.map((p: Initiation) => ({ InstructionIdentification: p.InstructionIdentification, Status: 'Pending' })) } },
  };
}

/** The routes of one family, in the UK layout (below /pisp). */
function familyRoutes(family: Family): UkRoute[] {
  const { consents, orders, funds } = FAMILIES[family];
  return [
    route(A, 'POST', `/pisp/${consents}`, createConsent(family), { sign, verify }),
    route(A, 'GET', `/pisp/${consents}/:consentId`, getConsent(family), { sign }),
    ...(funds ? [route(A, 'GET', `/pisp/${consents}/:consentId/funds-confirmation`, getFunds(family), { sign })] : []),
    ...(family === 'file' ? [
      route(A, 'POST', `/pisp/${consents}/:consentId/file`, uploadFile, { verify }),
      route(A, 'GET', `/pisp/${consents}/:consentId/file`, downloadFile, { sign }),
    ] : []),
    route(A, 'POST', `/pisp/${orders}`, submitOrder(family), { sign, verify: verifyOrder }),
    route(A, 'GET', `/pisp/${orders}/:paymentOrderId`, getOrder(family), { sign }),
    route(A, 'GET', `/pisp/${orders}/:paymentOrderId/payment-details`, getDetails(family), { sign }),
    ...(family === 'file' ? [route(A, 'GET', `/pisp/${orders}/:paymentOrderId/report-file`, getReport, { sign })] : []),
  ];
}

/** Every route of the payment families (UK layout only). */
export const PIS_FAMILY_ROUTES: UkRoute[] = (Object.keys(FAMILIES) as Family[]).flatMap(familyRoutes);
