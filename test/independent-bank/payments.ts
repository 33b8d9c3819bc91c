/**
 * Larchmont's payment families and Variable Recurring Payments (UK Read/Write v3.1.11, written from
 * the official payment-initiation and VRP files): the domestic payment's order, funds check and
 * payment details beside its consent (apis.ts); domestic scheduled payments, domestic standing
 * orders, international payments (scheduled and standing orders too) and file payments — consent,
 * funds check where the file has one, file upload and read-back, order, payment details, report
 * file; and domestic VRP consents with the payments made under them, bounded by their
 * ControlParameters. Larchmont's own ways: its ids, its board rate for Actual and Indicative rates,
 * orders that answer only what the schemas require (no Links, no Meta but where VRP requires them).
 * At v4.0 (state.version) the same operations as the v4.0 files write them: standing orders
 * scheduled by MandateRelatedInformation, structured remittance, ISO 20022 statuses (v4.ts).
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  accountRef, badDate, customerConsent, invalid, isObject, ISO, missing, money, notFound, Refusal, text, tppToken, unauthorised,
  type Call, type Handler, type Reply, type Route,
} from './apis.ts';
import { amountOf, penceOf } from './data.ts';
import type { BankState, PaymentConsent, PaymentOrder } from './state.ts';
import { nowIso } from './state.ts';
import { consentStatus, DETAILS_STATUS_V4, initiationV4, mandate, ORDER_STATUS_V4, risk as riskV4 } from './v4.ts';

const DAY = 86_400_000;
/** The Frequency grammar of the v3.1.11 file (OBFrequency). */
const FREQUENCY = /^(EvryDay)$|^(EvryWorkgDay)$|^(IntrvlDay:((0[2-9])|([1-2][0-9])|3[0-1]))$|^(IntrvlWkDay:0[1-9]:0[1-7])$|^(WkInMnthDay:0[1-5]:0[1-7])$|^(IntrvlMnthDay:(0[1-6]|12|24):(-0[1-5]|0[1-9]|[12][0-9]|3[01]))$|^(QtrDay:(ENGLISH|SCOTTISH|RECEIVED))$/;
const JSON_FILE = 'UK.OBIE.PaymentInitiation.3.1';
/** v4.0's FileType of the same JSON file (FACTS-v4 §3.4). */
const JSON_FILE_V4 = 'UK.OBIE.PaymentInitiation.4.0';
/** Larchmont's board rate, GBP to anything (a test bank trades at one rate). */
const BOARD_RATE = 1.1675;
const FAILS = 'UK.OBIE.Rules.FailsControlParameters';

interface Family {
  /** Path stem of its consents (`…-consents`) and the consent's family mark. */
  stem: string;
  orders: string;
  idField: string;
  permission: boolean;
  risk: boolean;
  funds: boolean;
  shape: 'single' | 'scheduled' | 'standing' | 'file';
  international: boolean;
  orderStatus: string;
}

const DOMESTIC: Family = { stem: 'domestic-payment', orders: 'domestic-payments', idField: 'DomesticPaymentId', permission: false, risk: true, funds: true, shape: 'single', international: false, orderStatus: 'Pending' };
const FAMILIES: Family[] = [
  { stem: 'domestic-scheduled-payment', orders: 'domestic-scheduled-payments', idField: 'DomesticScheduledPaymentId', permission: true, risk: true, funds: false, shape: 'scheduled', international: false, orderStatus: 'InitiationPending' },
  { stem: 'domestic-standing-order', orders: 'domestic-standing-orders', idField: 'DomesticStandingOrderId', permission: true, risk: true, funds: false, shape: 'standing', international: false, orderStatus: 'InitiationPending' },
  { stem: 'international-payment', orders: 'international-payments', idField: 'InternationalPaymentId', permission: false, risk: true, funds: true, shape: 'single', international: true, orderStatus: 'Pending' },
  { stem: 'international-scheduled-payment', orders: 'international-scheduled-payments', idField: 'InternationalScheduledPaymentId', permission: true, risk: true, funds: true, shape: 'scheduled', international: true, orderStatus: 'InitiationPending' },
  { stem: 'international-standing-order', orders: 'international-standing-orders', idField: 'InternationalStandingOrderId', permission: true, risk: true, funds: false, shape: 'standing', international: true, orderStatus: 'InitiationPending' },
  { stem: 'file-payment', orders: 'file-payments', idField: 'FilePaymentId', permission: false, risk: false, funds: false, shape: 'file', international: false, orderStatus: 'InitiationPending' },
];

/** Equal as JSON values, whatever the order of their members. */
function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && sameValue(a[k], b[k]));
  }
  return a === b;
}

function idempotencyKey(c: Call): string {
  const key = c.headers['x-idempotency-key'];
  if (typeof key !== 'string' || key.length === 0) throw new Refusal(400, 'x-idempotency-key is required', 'UK.OBIE.Header.Missing', 'x-idempotency-key');
  if (key.length > 40 || /^\s|\s$/.test(key)) throw new Refusal(400, 'x-idempotency-key must be 1 to 40 characters, not starting or ending with a space', 'UK.OBIE.Header.Invalid', 'x-idempotency-key');
  return key;
}

/** The resource an earlier request under the same key made (within 24 hours), refusing another body under it. */
function replayed(state: BankState, slot: string, raw: string): string | undefined {
  const earlier = state.idempotency.get(slot);
  if (!earlier || Date.now() - earlier.at >= DAY) return undefined;
  if (earlier.body !== raw) throw new Refusal(400, 'this x-idempotency-key was used with a different request', 'UK.OBIE.Header.Invalid', 'x-idempotency-key');
  return earlier.id;
}

function checkInitiation(f: Family, i: unknown, version: 'v3.1' | 'v4.0'): Record<string, any> {
  if (!isObject(i)) throw missing('Data.Initiation');
  if (version === 'v4.0') initiationV4(i, 'Data.Initiation');
  const at = (field: string) => `Data.Initiation.${field}`;
  const id35 = (field: string, required: boolean) => {
    if (i[field] === undefined) {
      if (required) throw missing(at(field));
      return;
    }
    if (!text(i[field], 35)) throw invalid(at(field), 'must be 1 to 35 characters');
  };
  const when = (field: string, required: boolean) => {
    if (i[field] === undefined) {
      if (required) throw missing(at(field));
      return;
    }
    if (typeof i[field] !== 'string' || !ISO.test(i[field]) || Number.isNaN(Date.parse(i[field]))) throw badDate(at(field), 'must be an ISO 8601 date-time with its offset');
  };
  if (i.DebtorAccount !== undefined) accountRef(i.DebtorAccount, at('DebtorAccount'));
  if (f.shape === 'file') {
    if (i.FileType === undefined) throw missing(at('FileType'));
    if (!text(i.FileType, 40)) throw invalid(at('FileType'), 'must be 1 to 40 characters');
    if (i.FileHash === undefined) throw missing(at('FileHash'));
    if (!text(i.FileHash, 44)) throw invalid(at('FileHash'), 'must be 1 to 44 characters');
    if (i.NumberOfTransactions !== undefined && (typeof i.NumberOfTransactions !== 'string' || !/^\d{1,15}$/.test(i.NumberOfTransactions))) throw invalid(at('NumberOfTransactions'), 'must be a count');
    if (i.ControlSum !== undefined && (typeof i.ControlSum !== 'number' || i.ControlSum < 0)) throw invalid(at('ControlSum'), 'must be a number');
    when('RequestedExecutionDateTime', false);
    return i;
  }
  accountRef(i.CreditorAccount, at('CreditorAccount'));
  if (f.shape === 'standing' && version === 'v4.0') {
    // v4.0: Frequency, FirstPaymentDateTime, FinalPaymentDateTime and Reference left the Initiation
    // for MandateRelatedInformation (its Frequency alone required) and RemittanceInformation.
    for (const gone of ['Frequency', 'FirstPaymentDateTime', 'FinalPaymentDateTime', 'RecurringPaymentDateTime', 'Reference']) {
      if (i[gone] !== undefined) throw new Refusal(400, `${at(gone)} is v3.1's: v4.0 has no such member`, 'UK.OBIE.Field.Unexpected', at(gone));
    }
    mandate(i.MandateRelatedInformation, at('MandateRelatedInformation'));
    if (i.NumberOfPayments !== undefined && i.MandateRelatedInformation.FinalPaymentDateTime !== undefined) throw invalid(at('NumberOfPayments'), 'and FinalPaymentDateTime cannot both end a standing order');
    if (f.international) money(i.InstructedAmount, at('InstructedAmount'));
    else {
      money(i.FirstPaymentAmount, at('FirstPaymentAmount'));
      if (i.RecurringPaymentAmount !== undefined) money(i.RecurringPaymentAmount, at('RecurringPaymentAmount'));
      if (i.FinalPaymentAmount !== undefined) money(i.FinalPaymentAmount, at('FinalPaymentAmount'));
    }
  } else if (f.shape === 'standing') {
    if (i.Frequency === undefined) throw missing(at('Frequency'));
    if (typeof i.Frequency !== 'string' || !FREQUENCY.test(i.Frequency)) throw invalid(at('Frequency'), 'is not of the standard\'s Frequency grammar');
    when('FirstPaymentDateTime', true);
    when('FinalPaymentDateTime', false);
    if (i.NumberOfPayments !== undefined && i.FinalPaymentDateTime !== undefined) throw invalid(at('NumberOfPayments'), 'and FinalPaymentDateTime cannot both end a standing order');
    if (i.Reference !== undefined && !text(i.Reference, 35)) throw invalid(at('Reference'), 'must be 1 to 35 characters');
    if (f.international) money(i.InstructedAmount, at('InstructedAmount'));
    else {
      money(i.FirstPaymentAmount, at('FirstPaymentAmount'));
      if (i.RecurringPaymentAmount !== undefined) money(i.RecurringPaymentAmount, at('RecurringPaymentAmount'));
      if (i.FinalPaymentAmount !== undefined) money(i.FinalPaymentAmount, at('FinalPaymentAmount'));
    }
  } else {
    id35('InstructionIdentification', true);
    id35('EndToEndIdentification', f.shape === 'single');
    if (f.shape === 'scheduled') when('RequestedExecutionDateTime', true);
    money(i.InstructedAmount, at('InstructedAmount'));
  }
  if (f.international) {
    if (i.CurrencyOfTransfer === undefined) throw missing(at('CurrencyOfTransfer'));
    if (typeof i.CurrencyOfTransfer !== 'string' || !/^[A-Z]{3}$/.test(i.CurrencyOfTransfer)) throw invalid(at('CurrencyOfTransfer'), 'must be three capital letters');
    const x = i.ExchangeRateInformation;
    if (x !== undefined) {
      const where = at('ExchangeRateInformation');
      if (!isObject(x)) throw invalid(where, 'must be an object');
      if (typeof x.UnitCurrency !== 'string' || !/^[A-Z]{3}$/.test(x.UnitCurrency)) throw invalid(`${where}.UnitCurrency`, 'must be three capital letters');
      if (!['Actual', 'Agreed', 'Indicative'].includes(x.RateType)) throw invalid(`${where}.RateType`, 'must be Actual, Agreed or Indicative');
      if (x.RateType === 'Agreed') {
        if (typeof x.ExchangeRate !== 'number') throw missing(`${where}.ExchangeRate`);
        if (!text(x.ContractIdentification, 256)) throw missing(`${where}.ContractIdentification`);
      } else if (x.ExchangeRate !== undefined || x.ContractIdentification !== undefined) {
        throw new Refusal(400, `an ${x.RateType} rate is the bank's to give: no ExchangeRate or ContractIdentification`, 'UK.OBIE.Field.Unexpected', `${where}.ExchangeRate`);
      }
    }
  }
  return i;
}

/** The rate the bank gives an international payment: an agreed one as agreed, else its board rate. */
function rateFor(i: Record<string, any>): Record<string, unknown> | undefined {
  const x = i.ExchangeRateInformation;
  if (!isObject(x)) return undefined;
  if (x.RateType === 'Agreed') return { UnitCurrency: x.UnitCurrency, ExchangeRate: x.ExchangeRate, RateType: 'Agreed', ContractIdentification: x.ContractIdentification };
  return {
    UnitCurrency: x.UnitCurrency, ExchangeRate: BOARD_RATE, RateType: x.RateType,
    ...(x.RateType === 'Indicative' ? { ExpirationDateTime: new Date(Date.now() + 15 * 60_000).toISOString().replace(/\.\d{3}Z$/, '+00:00') } : {}),
  };
}

/** The amount a consent pays, in pence (a standing order: its first payment; a file: its ControlSum). */
function pencePaid(k: PaymentConsent): number {
  const i = k.initiation;
  const m = i.InstructedAmount ?? i.FirstPaymentAmount;
  if (m) return penceOf(m.Amount) ?? 0;
  return typeof i.ControlSum === 'number' ? Math.round(i.ControlSum * 100) : 0;
}

const familyOf = (k: PaymentConsent) => k.family ?? DOMESTIC.stem;

export function familyRoutes(state: BankState): Route[] {
  const route = (method: string, path: string, handler: Handler): Route => ({ variants: ['A'], method, segments: path.split('/').filter(Boolean), handler });

  const consentBody = (f: Family, k: PaymentConsent) => ({
    Data: {
      ConsentId: k.id, CreationDateTime: k.created, Status: consentStatus(state, k.status), StatusUpdateDateTime: k.statusUpdated,
      ...(f.permission ? { Permission: 'Create' } : {}),
      ...(k.rate ? { ExchangeRateInformation: k.rate } : {}),
      Initiation: k.initiation,
    },
    ...(f.risk ? { Risk: k.risk } : {}),
  });
  const orderBody = (f: Family, o: PaymentOrder) => {
    const k = state.consents.get(o.consentId) as PaymentConsent;
    return {
      Data: {
        [f.idField]: o.id, ConsentId: o.consentId, CreationDateTime: o.created, Status: o.status, StatusUpdateDateTime: o.created,
        ...(k.rate ? { ExchangeRateInformation: k.rate } : {}),
        Initiation: o.data.Initiation,
      },
    };
  };
  const details = (o: PaymentOrder): Reply => ({ status: 200, body: { Data: { PaymentStatus: [{ PaymentTransactionId: `LB${o.id.replace(/-/g, '').slice(0, 20).toUpperCase()}`, Status: state.version === 'v4.0' ? DETAILS_STATUS_V4 : 'Pending', StatusUpdateDateTime: o.created }] } } });

  /** A consent of this family this TPP made, read with its own token or the customer's token for it. */
  const own = (c: Call, stem: string, id: string): PaymentConsent => {
    if (!c.token) throw unauthorised(c.tokenProblem ?? 'no access token');
    const k = state.consents.get(id);
    const ok = k?.api === 'pis' && !k.vrp && familyOf(k) === stem && k.clientId === c.token.client_id
      && (c.token.token_use === 'tpp' ? String(c.token.scope ?? '').split(' ').includes('payments') : c.token.openbanking_intent_id === k.id);
    if (!ok) throw notFound('the consent');
    return k as PaymentConsent;
  };
  const ownOrder = (c: Call, f: Family): PaymentOrder => {
    if (!c.token) throw unauthorised(c.tokenProblem ?? 'no access token');
    const o = state.orders.get(c.params.orderId!);
    const k = o && state.consents.get(o.consentId);
    if (!o || !k || k.api !== 'pis' || familyOf(k) !== f.stem || o.clientId !== c.token.client_id) throw notFound('the payment');
    return o;
  };
  /** The customer's account a consent pays from. */
  const debtorAccount = (k: PaymentConsent) => {
    const customer = state.customer(k.customer);
    const ref = k.debtor ?? k.initiation.DebtorAccount;
    return customer && ref ? state.accountByReference(customer, ref) : undefined;
  };
  /** The customer's token for an authorised payment consent (a TPP token is not an authorisation here). */
  const paying = (c: Call): PaymentConsent => {
    const k = customerConsent(state, c, 'pis');
    if (k.vrp?.deleted) throw new Refusal(400, 'the consent has been revoked', 'UK.OBIE.Resource.InvalidConsentStatus');
    if (k.status !== 'Authorised') throw new Refusal(403, `the consent is ${k.status}`, 'UK.OBIE.Resource.InvalidConsentStatus');
    return k;
  };

  const routes: Route[] = [];
  for (const f of [DOMESTIC, ...FAMILIES]) {
    if (f !== DOMESTIC) {
      routes.push(route('POST', `/${f.stem}-consents`, (c) => {
        const token = tppToken(c, 'payments');
        const slot = `${token.client_id} ${f.stem}-consents ${idempotencyKey(c)}`;
        const again = replayed(state, slot, c.raw);
        if (again) return { status: 201, body: consentBody(f, state.consents.get(again) as PaymentConsent) };
        if (!isObject(c.body) || !isObject(c.body.Data)) throw missing('Data');
        if (f.risk && !isObject(c.body.Risk)) throw missing('Risk');
        if (f.risk && state.version === 'v4.0') riskV4(c.body.Risk);
        if (f.permission) {
          if (c.body.Data.Permission === undefined) throw missing('Data.Permission');
          if (c.body.Data.Permission !== 'Create') throw invalid('Data.Permission', 'must be Create');
        }
        const initiation = checkInitiation(f, c.body.Data.Initiation, state.version);
        const stamp = nowIso();
        const consent: PaymentConsent = {
          api: 'pis', family: f.stem, id: `${f.stem.split('-').map((w) => w[0]).join('')}-${randomUUID()}`, clientId: String(token.client_id),
          status: f.shape === 'file' ? 'AwaitingUpload' : 'AwaitingAuthorisation', created: stamp, statusUpdated: stamp,
          initiation, risk: f.risk ? c.body.Risk : {},
          ...(f.international && rateFor(initiation) ? { rate: rateFor(initiation) } : {}),
        } as PaymentConsent;
        state.consents.set(consent.id, consent);
        state.idempotency.set(slot, { id: consent.id, body: c.raw, at: Date.now() });
        return { status: 201, body: consentBody(f, consent) };
      }));
      routes.push(route('GET', `/${f.stem}-consents/:paymentId`, (c) => ({ status: 200, body: consentBody(f, own(c, f.stem, c.params.paymentId!)) })));
    }
    if (f.funds) {
      routes.push(route('GET', `/${f.stem}-consents/:paymentId/funds-confirmation`, (c) => {
        const k = paying(c);
        if (k.id !== c.params.paymentId || familyOf(k) !== f.stem) throw new Refusal(403, 'the token was not issued for this consent', 'UK.OBIE.Resource.ConsentMismatch');
        const account = debtorAccount(k);
        return { status: 200, body: { Data: { FundsAvailableResult: { FundsAvailableDateTime: nowIso(), FundsAvailable: !!account && pencePaid(k) <= account.availablePence } } } };
      }));
    }
    routes.push(route('POST', `/${f.orders}`, (c) => {
      const k = customerConsent(state, c, 'pis');
      const slot = `${c.token!.client_id} ${f.orders} ${idempotencyKey(c)}`;
      const again = replayed(state, slot, c.raw);
      if (again) return { status: 201, body: orderBody(f, state.orders.get(again)!) };
      if (!isObject(c.body) || !isObject(c.body.Data)) throw missing('Data');
      const data = c.body.Data;
      if (data.ConsentId === undefined) throw missing('Data.ConsentId');
      if (data.ConsentId !== k.id || familyOf(k) !== f.stem || k.vrp) throw new Refusal(400, 'Data.ConsentId is not the consent this token was authorised for', 'UK.OBIE.Resource.ConsentMismatch', 'Data.ConsentId');
      if (k.status !== 'Authorised') throw new Refusal(400, `the consent is ${k.status}: it pays once`, 'UK.OBIE.Resource.InvalidConsentStatus', 'Data.ConsentId');
      // The order is its consent's: the grammar first (an answer that says what is wrong), then the whole Initiation and Risk.
      checkInitiation(f, data.Initiation, state.version);
      if (!sameValue(data.Initiation, k.initiation)) throw new Refusal(400, 'Data.Initiation is not the consent\'s', 'UK.OBIE.Resource.ConsentMismatch', 'Data.Initiation');
      if (f.risk) {
        if (!isObject(c.body.Risk)) throw missing('Risk');
        if (!sameValue(c.body.Risk, k.risk)) throw new Refusal(400, 'Risk is not the consent\'s', 'UK.OBIE.Resource.ConsentMismatch', 'Risk');
      }
      const stamp = nowIso();
      const order: PaymentOrder = { id: `lbo-${randomUUID()}`, consentId: k.id, clientId: k.clientId, created: stamp, status: state.version === 'v4.0' ? ORDER_STATUS_V4[f.orders]! : f.orderStatus, data, pence: pencePaid(k), at: Date.now() };
      state.orders.set(order.id, order);
      state.idempotency.set(slot, { id: order.id, body: c.raw, at: Date.now() });
      k.status = 'Consumed';
      k.statusUpdated = stamp;
      return { status: 201, body: orderBody(f, order) };
    }));
    routes.push(route('GET', `/${f.orders}/:orderId`, (c) => ({ status: 200, body: orderBody(f, ownOrder(c, f)) })));
    routes.push(route('GET', `/${f.orders}/:orderId/payment-details`, (c) => details(ownOrder(c, f))));
  }

  // ── the file of a file payment ──
  const fileConsent = (c: Call): PaymentConsent => {
    const token = tppToken(c, 'payments');
    const k = state.consents.get(c.params.paymentId!);
    if (!k || k.api !== 'pis' || k.family !== 'file-payment' || k.clientId !== token.client_id) throw notFound('the consent');
    return k;
  };
  routes.push(route('POST', '/file-payment-consents/:paymentId/file', (c) => {
    const k = fileConsent(c);
    if (k.status !== 'AwaitingUpload') throw new Refusal(400, `the consent is ${k.status}: its file was uploaded`, 'UK.OBIE.Resource.InvalidConsentStatus');
    const i = k.initiation;
    if (createHash('sha256').update(c.raw, 'utf8').digest('base64') !== i.FileHash) throw new Refusal(400, 'the file is not the one the consent\'s FileHash names', 'UK.OBIE.Field.Invalid', 'FileHash');
    const jsonFile = state.version === 'v4.0' ? JSON_FILE_V4 : JSON_FILE;
    if (i.FileType === jsonFile) {
      const payments = isObject(c.body) && isObject(c.body.Data) && Array.isArray(c.body.Data.DomesticPayments) ? c.body.Data.DomesticPayments : undefined;
      if (!payments) throw new Refusal(400, `a ${jsonFile} file holds Data.DomesticPayments`, 'UK.OBIE.Resource.InvalidFormat');
      if (i.NumberOfTransactions !== undefined && Number(i.NumberOfTransactions) !== payments.length) throw new Refusal(400, `the file holds ${payments.length} payment(s), the consent says ${i.NumberOfTransactions}`, 'UK.OBIE.Field.Invalid', 'NumberOfTransactions');
      const sum = payments.reduce((s: number, p: any) => s + (penceOf(p?.InstructedAmount?.Amount) ?? Number.NaN), 0);
      if (i.ControlSum !== undefined && sum !== Math.round(i.ControlSum * 100)) throw new Refusal(400, `the file's payments add up to ${amountOf(sum)}, the consent's ControlSum is ${i.ControlSum}`, 'UK.OBIE.Field.Invalid', 'ControlSum');
    }
    k.file = c.raw;
    k.status = 'AwaitingAuthorisation';
    k.statusUpdated = nowIso();
    return { status: 200 };
  }));
  routes.push(route('GET', '/file-payment-consents/:paymentId/file', (c) => {
    const k = fileConsent(c);
    if (k.file === undefined) throw notFound('the file');
    return { status: 200, raw: k.file };
  }));
  routes.push(route('GET', '/file-payments/:orderId/report-file', (c) => {
    const o = ownOrder(c, FAMILIES.find((f) => f.shape === 'file')!);
    const k = state.consents.get(o.consentId) as PaymentConsent;
    const payments = JSON.parse(k.file ?? '{}')?.Data?.DomesticPayments ?? [];
    return { status: 200, body: { Data: { FilePaymentId: o.id, Payments: payments.map((p: any) => ({ InstructionIdentification: p?.InstructionIdentification, Status: state.version === 'v4.0' ? 'PDNG' : 'Pending' })) } } };
  }));

  // ── Variable Recurring Payments ──
  const vrpConsentBody = (k: PaymentConsent, self: string) => ({
    Data: {
      ...(k.vrp!.readRefundAccount ? { ReadRefundAccount: k.vrp!.readRefundAccount } : {}),
      ConsentId: k.id, CreationDateTime: k.created, Status: consentStatus(state, k.status), StatusUpdateDateTime: k.statusUpdated,
      ControlParameters: k.vrp!.controls, Initiation: k.initiation,
    },
    Risk: k.risk,
    Links: { Self: self },
    Meta: {},
  });
  /**
   * A VRP consent's answer. At v4.0 with the optional payload-version header the file gives consent
   * answers (Larchmont's choice: it states the schema version it answers in, 4.0.0, the files' own).
   */
  const vrpConsentReply = (status: number, k: PaymentConsent, c: Call): Reply => ({
    status,
    body: vrpConsentBody(k, self(c, `/domestic-vrp-consents/${k.id}`)),
    ...(state.version === 'v4.0' ? { headers: { 'payload-version': '4.0.0' } } : {}),
  });
  /** The consent as a request document (what a JSON Patch applies to). */
  const requestOf = (k: PaymentConsent) => ({
    Data: { ...(k.vrp!.readRefundAccount ? { ReadRefundAccount: k.vrp!.readRefundAccount } : {}), ControlParameters: k.vrp!.controls, Initiation: k.initiation },
    Risk: k.risk,
  });
  const vrpBody = (o: PaymentOrder, self: string) => ({
    Data: {
      DomesticVRPId: o.id, ConsentId: o.consentId, CreationDateTime: o.created, Status: o.status, StatusUpdateDateTime: o.created,
      Initiation: o.data.Initiation, Instruction: o.data.Instruction,
    },
    Risk: o.risk ?? {},
    Links: { Self: self },
    Meta: {},
  });
  const self = (c: Call, path: string) => `https://larchmont.example/open-banking/${state.version}/pisp${path}`;
  const codes = (v: unknown, path: string) => {
    if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'string' && x.length > 0)) throw invalid(path, 'must list at least one code');
  };
  const ownVrpConsent = (c: Call): PaymentConsent => {
    if (!c.token) throw unauthorised(c.tokenProblem ?? 'no access token');
    const k = state.consents.get(c.params.consentId!);
    const ok = k?.api === 'pis' && k.vrp && !k.vrp.deleted && k.clientId === c.token.client_id
      && (c.token.token_use === 'tpp' ? String(c.token.scope ?? '').split(' ').includes('payments') : c.token.openbanking_intent_id === k.id);
    if (!ok) throw notFound('the VRP consent');
    return k as PaymentConsent;
  };
  /** A VRP consent request (OBDomesticVRPConsentRequest) checked: its Data and ControlParameters. */
  const vrpConsentRequest = (body: any): { data: Record<string, any>; cp: Record<string, any> } => {
    if (!isObject(body) || !isObject(body.Data)) throw missing('Data');
    if (!isObject(body.Risk)) throw missing('Risk');
    const data = body.Data;
    const cp = data.ControlParameters;
    const at = 'Data.ControlParameters';
    if (!isObject(cp)) throw missing(at);
    codes(cp.VRPType, `${at}.VRPType`);
    codes(cp.PSUAuthenticationMethods, `${at}.PSUAuthenticationMethods`);
    money(cp.MaximumIndividualAmount, `${at}.MaximumIndividualAmount`);
    if (cp.PeriodicLimits === undefined) throw missing(`${at}.PeriodicLimits`);
    if (!Array.isArray(cp.PeriodicLimits) || cp.PeriodicLimits.length === 0) throw invalid(`${at}.PeriodicLimits`, 'must list at least one limit');
    cp.PeriodicLimits.forEach((l: unknown, n: number) => {
      const where = `${at}.PeriodicLimits[${n}]`;
      if (!isObject(l)) throw invalid(where, 'must be an object');
      if (!['Day', 'Week', 'Fortnight', 'Month', 'Half-year', 'Year'].includes(l.PeriodType)) throw invalid(`${where}.PeriodType`, 'is not a period type of the standard');
      if (!['Consent', 'Calendar'].includes(l.PeriodAlignment)) throw invalid(`${where}.PeriodAlignment`, 'must be Consent or Calendar');
      // VRP4's PeriodAlignment description: a Fortnight is counted from the consent only.
      if (state.version === 'v4.0' && l.PeriodType === 'Fortnight' && l.PeriodAlignment !== 'Consent') throw invalid(`${where}.PeriodAlignment`, 'must be Consent for a Fortnight');
      money({ Amount: l.Amount, Currency: l.Currency }, where);
    });
    for (const field of ['ValidFromDateTime', 'ValidToDateTime']) {
      if (cp[field] !== undefined && (typeof cp[field] !== 'string' || !ISO.test(cp[field]) || Number.isNaN(Date.parse(cp[field])))) throw badDate(`${at}.${field}`, 'must be an ISO 8601 date-time with its offset');
    }
    if (!isObject(data.Initiation)) throw missing('Data.Initiation');
    if (data.Initiation.CreditorAccount !== undefined) accountRef(data.Initiation.CreditorAccount, 'Data.Initiation.CreditorAccount');
    if (data.Initiation.DebtorAccount !== undefined) accountRef(data.Initiation.DebtorAccount, 'Data.Initiation.DebtorAccount');
    if (data.ReadRefundAccount !== undefined && data.ReadRefundAccount !== 'Yes' && data.ReadRefundAccount !== 'No') throw invalid('Data.ReadRefundAccount', 'must be Yes or No');
    if (state.version === 'v4.0') {
      initiationV4(data.Initiation, 'Data.Initiation');
      riskV4(body.Risk);
      // VRP4 shortened every cash account's Name to 70 characters (PIS4 keeps 350).
      for (const side of ['CreditorAccount', 'DebtorAccount']) {
        const name = data.Initiation[side]?.Name;
        if (name !== undefined && !text(name, 70)) throw invalid(`Data.Initiation.${side}.Name`, 'must be 1 to 70 characters at v4.0');
      }
    }
    return { data, cp };
  };
  routes.push(route('POST', '/domestic-vrp-consents', (c) => {
    const token = tppToken(c, 'payments');
    const slot = `${token.client_id} domestic-vrp-consents ${idempotencyKey(c)}`;
    const again = replayed(state, slot, c.raw);
    if (again) return vrpConsentReply(201, state.consents.get(again) as PaymentConsent, c);
    const { data, cp } = vrpConsentRequest(c.body);
    const stamp = nowIso();
    const consent: PaymentConsent = {
      api: 'pis', id: `vrc-${randomUUID()}`, clientId: String(token.client_id), status: 'AwaitingAuthorisation', created: stamp, statusUpdated: stamp,
      initiation: data.Initiation, risk: c.body.Risk,
      vrp: { controls: cp, deleted: false, ...(data.ReadRefundAccount ? { readRefundAccount: data.ReadRefundAccount } : {}) },
    };
    state.consents.set(consent.id, consent);
    state.idempotency.set(slot, { id: consent.id, body: c.raw, at: Date.now() });
    return vrpConsentReply(201, consent, c);
  }));
  routes.push(route('GET', '/domestic-vrp-consents/:consentId', (c) => vrpConsentReply(200, ownVrpConsent(c), c)));
  if (state.version === 'v4.0') {
    // v4.0 only: PUT and PATCH of a VRP consent, which the file reserves for migrating a consent
    // between versions and says no more of (FACTS-v4 §6.4). Larchmont's reading: the consent keeps
    // its id and its status (the PSU authorised the same limits), its ControlParameters cannot be
    // changed this way (400: a change of limits is a new consent for the PSU to authorise), and
    // a consent that was revoked, rejected or deleted cannot be migrated. PATCH takes RFC 6902's
    // add, replace, remove and test, under /Data and /Risk.
    const migrate = (c: Call, updated: unknown): Reply => {
      const k = ownVrpConsent(c);
      if (k.status !== 'AwaitingAuthorisation' && k.status !== 'Authorised') throw new Refusal(400, `the consent is ${k.status}: it cannot be migrated`, 'UK.OBIE.Resource.InvalidConsentStatus');
      const { data, cp } = vrpConsentRequest(updated);
      if (!sameValue(cp, k.vrp!.controls)) throw new Refusal(400, 'the ControlParameters the PSU authorised cannot be changed by an update: create a new consent', 'UK.OBIE.Field.Unexpected', 'Data.ControlParameters');
      k.initiation = data.Initiation;
      k.risk = (updated as any).Risk;
      if (data.ReadRefundAccount !== undefined) k.vrp!.readRefundAccount = data.ReadRefundAccount;
      else delete k.vrp!.readRefundAccount;
      k.statusUpdated = nowIso();
      return vrpConsentReply(200, k, c);
    };
    const updating = (c: Call, what: string, make: (k: PaymentConsent) => unknown): Reply => {
      const token = tppToken(c, 'payments');
      const slot = `${token.client_id} ${what} ${c.params.consentId} ${idempotencyKey(c)}`;
      const again = replayed(state, slot, c.raw);
      if (again) return vrpConsentReply(200, ownVrpConsent(c), c);
      const reply = migrate(c, make(ownVrpConsent(c)));
      state.idempotency.set(slot, { id: c.params.consentId!, body: c.raw, at: Date.now() });
      return reply;
    };
    routes.push(route('PUT', '/domestic-vrp-consents/:consentId', (c) => updating(c, 'vrp-put', () => c.body)));
    routes.push(route('PATCH', '/domestic-vrp-consents/:consentId', (c) => updating(c, 'vrp-patch', (k) => applyPatch(requestOf(k), c.body))));
  }
  routes.push(route('DELETE', '/domestic-vrp-consents/:consentId', (c) => {
    tppToken(c, 'payments');
    const k = ownVrpConsent(c);
    k.vrp!.deleted = true;
    k.statusUpdated = nowIso();
    return { status: 204 };
  }));
  routes.push(route('POST', '/domestic-vrp-consents/:consentId/funds-confirmation', (c) => {
    const k = paying(c);
    if (!k.vrp || k.id !== c.params.consentId) throw new Refusal(403, 'the token was not issued for this VRP consent', 'UK.OBIE.Resource.ConsentMismatch');
    if (!isObject(c.body) || !isObject(c.body.Data)) throw missing('Data');
    const data = c.body.Data;
    if (data.ConsentId !== k.id) throw new Refusal(400, 'Data.ConsentId is not the consent of the path', 'UK.OBIE.Resource.ConsentMismatch', 'Data.ConsentId');
    if (data.Reference !== undefined && !text(data.Reference, 35)) throw invalid('Data.Reference', 'must be 1 to 35 characters');
    const asked = money(data.InstructedAmount, 'Data.InstructedAmount');
    const account = debtorAccount(k);
    const stamp = nowIso();
    return {
      status: 201,
      body: {
        Data: {
          FundsConfirmationId: `lbf-${randomUUID()}`.slice(0, 40), ConsentId: k.id, CreationDateTime: stamp,
          ...(data.Reference !== undefined ? { Reference: data.Reference } : {}),
          FundsAvailableResult: { FundsAvailableDateTime: stamp, FundsAvailable: account && asked.pence <= account.availablePence ? 'Available' : 'NotAvailable' },
          InstructedAmount: { Amount: asked.Amount, Currency: asked.Currency },
        },
      },
    };
  }));
  routes.push(route('POST', '/domestic-vrps', (c) => {
    const k = paying(c);
    if (!k.vrp) throw new Refusal(403, 'the token was not issued for a VRP consent', 'UK.OBIE.Resource.ConsentMismatch');
    const slot = `${k.clientId} domestic-vrps ${idempotencyKey(c)}`;
    const again = replayed(state, slot, c.raw);
    if (again) return { status: 201, body: vrpBody(state.orders.get(again)!, self(c, `/domestic-vrps/${again}`)) };
    if (!isObject(c.body) || !isObject(c.body.Data)) throw missing('Data');
    const data = c.body.Data;
    if (data.ConsentId !== k.id) throw new Refusal(400, 'Data.ConsentId is not the consent this token was authorised for', 'UK.OBIE.Resource.ConsentMismatch', 'Data.ConsentId');
    const cp = k.vrp.controls;
    if (!cp.PSUAuthenticationMethods.includes(data.PSUAuthenticationMethod)) throw new Refusal(400, 'Data.PSUAuthenticationMethod is not one the consent allows', FAILS, 'Data.PSUAuthenticationMethod');
    if (!cp.VRPType.includes(data.VRPType)) throw new Refusal(400, 'Data.VRPType is not one the consent allows', FAILS, 'Data.VRPType');
    if (!sameValue(data.Initiation, k.initiation)) throw new Refusal(400, 'Data.Initiation is not the consent\'s', 'UK.OBIE.Resource.ConsentMismatch', 'Data.Initiation');
    if (!isObject(c.body.Risk)) throw missing('Risk');
    if (!sameValue(c.body.Risk, k.risk)) throw new Refusal(400, 'Risk is not the consent\'s', 'UK.OBIE.Resource.ConsentMismatch', 'Risk');
    const ins = data.Instruction;
    if (!isObject(ins)) throw missing('Data.Instruction');
    if (state.version === 'v4.0') initiationV4(ins, 'Data.Instruction');
    for (const f of ['InstructionIdentification', 'EndToEndIdentification']) {
      if (ins[f] === undefined) throw missing(`Data.Instruction.${f}`);
      if (!text(ins[f], 35)) throw invalid(`Data.Instruction.${f}`, 'must be 1 to 35 characters');
    }
    const amount = money(ins.InstructedAmount, 'Data.Instruction.InstructedAmount');
    accountRef(ins.CreditorAccount, 'Data.Instruction.CreditorAccount');
    if (k.initiation.CreditorAccount && !sameValue(ins.CreditorAccount, k.initiation.CreditorAccount)) throw new Refusal(400, 'the creditor is not the consent\'s', 'UK.OBIE.Resource.ConsentMismatch', 'Data.Instruction.CreditorAccount');
    // The control parameters: the validity window, the maximum, the periodic limits.
    const now = Date.now();
    if (cp.ValidFromDateTime && now < Date.parse(cp.ValidFromDateTime)) throw new Refusal(400, 'the consent is not valid yet', FAILS, 'Data.Instruction.InstructedAmount');
    if (cp.ValidToDateTime && now > Date.parse(cp.ValidToDateTime)) throw new Refusal(400, 'the consent is no longer valid', FAILS, 'Data.Instruction.InstructedAmount');
    if (amount.Currency !== cp.MaximumIndividualAmount.Currency) throw new Refusal(400, `the consent pays in ${cp.MaximumIndividualAmount.Currency}`, FAILS, 'Data.Instruction.InstructedAmount.Currency');
    if (amount.pence > (penceOf(cp.MaximumIndividualAmount.Amount) ?? 0)) throw new Refusal(400, `the amount is above the MaximumIndividualAmount ${cp.MaximumIndividualAmount.Amount}`, FAILS, 'Data.Instruction.InstructedAmount.Amount');
    const paid = [...state.orders.values()].filter((o) => o.consentId === k.id);
    const anchor = Date.parse(cp.ValidFromDateTime ?? k.created);
    for (const limit of cp.PeriodicLimits as Array<Record<string, string>>) {
      const from = periodStart(limit.PeriodType!, limit.PeriodAlignment!, anchor, now);
      const spent = paid.filter((o) => o.at >= from).reduce((s, o) => s + o.pence, 0);
      if (spent + amount.pence > (penceOf(limit.Amount) ?? 0)) throw new Refusal(400, `the payment would pass the ${limit.PeriodType} limit of ${limit.Amount}`, FAILS, 'Data.Instruction.InstructedAmount.Amount');
    }
    const stamp = nowIso();
    const order: PaymentOrder = { id: `lbv-${randomUUID()}`, consentId: k.id, clientId: k.clientId, created: stamp, status: state.version === 'v4.0' ? ORDER_STATUS_V4['domestic-vrps']! : 'AcceptedSettlementInProcess', data, risk: c.body.Risk, pence: amount.pence, at: now };
    state.orders.set(order.id, order);
    state.idempotency.set(slot, { id: order.id, body: c.raw, at: now });
    return { status: 201, body: vrpBody(order, self(c, `/domestic-vrps/${order.id}`)) };
  }));
  const ownVrp = (c: Call): PaymentOrder => {
    if (!c.token) throw unauthorised(c.tokenProblem ?? 'no access token');
    const o = state.orders.get(c.params.vrpId!);
    const k = o && state.consents.get(o.consentId);
    if (!o || !k || k.api !== 'pis' || !k.vrp || o.clientId !== c.token.client_id) throw notFound('the VRP payment');
    return o;
  };
  routes.push(route('GET', '/domestic-vrps/:vrpId', (c) => ({ status: 200, body: vrpBody(ownVrp(c), self(c, `/domestic-vrps/${c.params.vrpId}`)) })));
  routes.push(route('GET', '/domestic-vrps/:vrpId/payment-details', (c) => details(ownVrp(c))));
  return routes;
}

/** RFC 6902 add, replace, remove and test on a copy of `doc`, under /Data and /Risk only. */
function applyPatch(doc: Record<string, any>, patch: unknown): Record<string, any> {
  if (!Array.isArray(patch) || patch.length === 0) throw new Refusal(400, 'a JSON Patch is a non-empty array of operations', 'UK.OBIE.Resource.InvalidFormat');
  const out = structuredClone(doc);
  patch.forEach((op: unknown, n: number) => {
    const where = `[${n}]`;
    if (!isObject(op) || typeof op.path !== 'string' || !/^\/(Data|Risk)(\/|$)/.test(op.path)) throw invalid(`${where}.path`, 'must point under /Data or /Risk');
    if (!['add', 'replace', 'remove', 'test'].includes(op.op)) throw invalid(`${where}.op`, 'must be add, replace, remove or test');
    const keys = op.path.split('/').slice(1).map((k: string) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = keys.pop()!;
    let parent: any = out;
    for (const k of keys) {
      parent = Array.isArray(parent) ? parent[Number(k)] : parent?.[k];
      if (typeof parent !== 'object' || parent === null) throw invalid(`${where}.path`, `${op.path} does not exist`);
    }
    const exists = Array.isArray(parent) ? last === '-' || Number(last) < parent.length : last in parent;
    if (op.op === 'test') {
      if (!exists || !sameValue(Array.isArray(parent) ? parent[Number(last)] : parent[last], op.value)) throw invalid(`${where}`, `the test of ${op.path} failed`);
      return;
    }
    if (op.op !== 'add' && !exists) throw invalid(`${where}.path`, `${op.path} does not exist`);
    if (op.op !== 'remove' && !('value' in op)) throw missing(`${where}.value`);
    if (Array.isArray(parent)) {
      const i = last === '-' ? parent.length : Number(last);
      if (op.op === 'remove') parent.splice(i, 1);
      else if (op.op === 'replace') parent[i] = op.value;
      else parent.splice(i, 0, op.value);
    } else if (op.op === 'remove') delete parent[last];
    else parent[last] = op.value;
  });
  return out;
}

/** Where the period holding `now` began: on the calendar (UTC; a week from Monday), or counted from the consent's start. */
function periodStart(type: string, alignment: string, anchor: number, now: number): number {
  const d = new Date(now);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  if (alignment === 'Calendar') {
    if (type === 'Day') return Date.UTC(y, m, d.getUTCDate());
    if (type === 'Week') return Date.UTC(y, m, d.getUTCDate()) - ((d.getUTCDay() + 6) % 7) * DAY;
    if (type === 'Month') return Date.UTC(y, m, 1);
    if (type === 'Half-year') return Date.UTC(y, m < 6 ? 0 : 6, 1);
    if (type === 'Year') return Date.UTC(y, 0, 1);
  }
  const days = ({ Day: 1, Week: 7, Fortnight: 14 } as Record<string, number>)[type];
  if (days) return anchor + Math.floor(Math.max(0, now - anchor) / (days * DAY)) * days * DAY;
  const months = ({ Month: 1, 'Half-year': 6, Year: 12 } as Record<string, number>)[type] ?? 1;
  let start = anchor;
  for (;;) {
    const next = new Date(start);
    next.setUTCMonth(next.getUTCMonth() + months);
    if (next.getTime() > now) return start;
    start = next.getTime();
  }
}
