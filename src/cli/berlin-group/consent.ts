/** NextGenPSD2 consents and payments at the terminal: their bodies from the flags, their create, read and delete. */
import { randomUUID } from 'node:crypto';
import type { Out } from '../output.ts';
import type { AisFlags, PisFlags } from '../flags.ts';
import type { ConsentRecord, Session } from '../../session/index.ts';
import { parseAmount, parseCurrency, parseWhen, required } from '../../session/parse.ts';
import { UsageError } from '../../errors.ts';
import type { AccountAccess } from '../../dialects/berlin-group/builders.ts';
import type { BgPaymentInitiation, PaymentService } from '../../session/berlin-group.ts';

/**
 * berlin-group: a recurring consent, bank-offered by default (the PSU picks the accounts at the
 * bank) for accounts, balances and transactions, or of a global form (--access), valid until
 * --expires (a date), 4 accesses a day.
 */
export async function createAis(session: Session, out: Out, flags: AisFlags): Promise<void> {
  const { body, summary } = await bgAisConsent(flags);
  const { createBgConsent } = await import('../../session/berlin-group.ts');
  const { result, record } = await out.step('creating the consent (POST /v1/consents)', () => createBgConsent(session, body, summary));
  if (out.json) return out.document(result.body);
  out.line(`created consent ${out.c.bold(record.id)} (${record.status}, SCA by ${record.sca?.approach ?? 'an approach obtpp does not speak'}); next: obtpp consent authorise`);
}

/** --access: the bank-offered lists (the PSU picks the accounts at the bank), or a global form, which reaches card accounts too. */
const BG_ACCESS_FORMS = {
  'bank-offered': { accounts: [], balances: [], transactions: [] },
  'all-psd2': { allPsd2: 'allAccounts' },
  'available-accounts': { availableAccounts: 'allAccounts' },
  'available-accounts-with-balance': { availableAccountsWithBalance: 'allAccounts' },
} as const;

function bgAccessOf(value: string): AccountAccess {
  const form = BG_ACCESS_FORMS[value.trim().toLowerCase() as keyof typeof BG_ACCESS_FORMS];
  if (!form) throw new UsageError(`--access ${value}: expected one of ${Object.keys(BG_ACCESS_FORMS).join(', ')}`);
  return structuredClone(form) as AccountAccess;
}

/** The berlin-group consent's body from the flags (the UK-only ones refused); shared with `flow ais`. */
export async function bgAisConsent(flags: AisFlags) {
  if (flags.permissions !== undefined || flags.from !== undefined || flags.to !== undefined) {
    throw new UsageError('--permissions, --from and --to are UK Open Banking terms: a berlin-group consent names access, validUntil (--expires) and frequencyPerDay');
  }
  const validUntil = parseWhen('--expires', flags.expires ?? '+90d').slice(0, 10);
  const { buildConsent } = await import('../../dialects/berlin-group/builders.ts');
  const body = buildConsent({ access: bgAccessOf(flags.access ?? 'bank-offered'), recurringIndicator: true, validUntil, frequencyPerDay: 4 });
  return { body, summary: { expiration: validUntil, access: body.access as Record<string, unknown> } };
}

/** berlin-group: the payment itself, POST /v1/{payment-service}/{payment-product}, with the SCA link it answers. */
export async function createPis(session: Session, out: Out, flags: PisFlags): Promise<void> {
  const initiation = await bgPayment(session, flags);
  const { createBgPayment } = await import('../../session/berlin-group.ts');
  const service = initiation.service ?? 'payments';
  const what = service === 'periodic-payments' ? 'standing order' : service === 'bulk-payments' ? 'bulk payment' : 'payment';
  const { result, record } = await out.step(`initiating the ${what} (POST /v1/${service}/${initiation.product})`, () => createBgPayment(session, initiation));
  if (out.json) return out.document(result.body);
  out.line(`created ${what} ${out.c.bold(record.id)} (${record.status}, SCA by ${record.sca?.approach ?? 'an approach obtpp does not speak'}); next: obtpp consent authorise, then obtpp payment status`);
}

/** --service: the NextGenPSD2 payment service. */
const SERVICES = ['payments', 'periodic-payments', 'bulk-payments'] as const;

/** The most payments a bulk of `consent create pis --service bulk-payments` carries. */
const BULK_MAX = 100;

const ibanOf = (flag: string, value: string | undefined, what: string) => {
  const v = required(flag, value, what).replace(/\s/g, '').toUpperCase();
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(v)) throw new UsageError(`${flag} ${value}: not an IBAN (two letters, two check digits, up to 30 letters and digits)`);
  return v;
};

const given = (pairs: ReadonlyArray<readonly [string, unknown]>) => pairs.filter(([, v]) => v !== undefined).map(([f]) => f);

/** One payment of a bulk, from the --payments file. */
interface BulkItem { creditorIban: string; creditorName: string; amount: string; currency: string; reference?: string }

/** --payments FILE: a JSON array of { creditorIban, creditorName, amount, currency?, reference? } (1 … 100). */
async function bulkItems(file: string, currency: string): Promise<BulkItem[]> {
  const { readFile } = await import('node:fs/promises');
  let list: unknown;
  try {
    list = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--payments ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : `not JSON (${(error as Error).message})`}`, { hint: 'a JSON array such as [{"creditorIban":"DE02120300000000202051","creditorName":"Bob Baker","amount":"12.50"}]' });
  }
  if (!Array.isArray(list) || list.length === 0 || list.length > BULK_MAX) throw new UsageError(`--payments ${file}: expected a JSON array of 1 to ${BULK_MAX} payments`);
  return list.map((item, i) => {
    const at = `--payments ${file} [${i}]`;
    if (typeof item !== 'object' || item === null) throw new UsageError(`${at}: expected an object with creditorIban, creditorName and amount`);
    const o = item as Record<string, unknown>;
    const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : o[k] === undefined ? undefined : String(o[k]));
    const creditorName = required(`${at}.creditorName`, str('creditorName'), 'the payee\'s name');
    if (creditorName.length > 70) throw new UsageError(`${at}.creditorName: at most 70 characters`);
    const reference = str('reference');
    if (reference !== undefined && reference.length > 140) throw new UsageError(`${at}.reference: at most 140 characters`);
    return {
      creditorIban: ibanOf(`${at}.creditorIban`, str('creditorIban'), 'the payee\'s IBAN'),
      creditorName,
      amount: parseAmount(`${at}.amount`, required(`${at}.amount`, str('amount'), 'the amount, e.g. "12.50"')),
      currency: parseCurrency(`${at}.currency`, str('currency') ?? currency),
      ...(reference !== undefined ? { reference } : {}),
    };
  });
}

/** A standing order's terms from --start-date, --end-date, --frequency, --execution-rule, --day-of-execution. */
async function standingOrderTerms(flags: PisFlags) {
  const { FREQUENCY_CODES, EXECUTION_RULES } = await import('../../dialects/berlin-group/schemas/members.ts');
  const frequency = required('--frequency', flags.frequency, `how often the standing order pays: ${FREQUENCY_CODES.join(', ')}`);
  if (!(FREQUENCY_CODES as readonly string[]).includes(frequency)) throw new UsageError(`--frequency ${frequency}: expected one of ${FREQUENCY_CODES.join(', ')}`);
  const startDate = parseWhen('--start-date', flags.startDate ?? '+1d').slice(0, 10);
  const endDate = flags.endDate === undefined ? undefined : parseWhen('--end-date', flags.endDate).slice(0, 10);
  if (endDate !== undefined && endDate < startDate) throw new UsageError(`--end-date ${flags.endDate} is before --start-date ${startDate}`);
  const rule = flags.executionRule;
  if (rule !== undefined && !(EXECUTION_RULES as readonly string[]).includes(rule)) throw new UsageError(`--execution-rule ${rule}: expected ${EXECUTION_RULES.join(' or ')}`);
  const day = flags.dayOfExecution;
  if (day !== undefined && !/^(0?[1-9]|[12][0-9]|3[01])$/.test(day)) throw new UsageError(`--day-of-execution ${day}: a day of the month, 1 to 31`);
  return {
    startDate, frequency,
    ...(endDate !== undefined ? { endDate } : {}),
    ...(rule !== undefined ? { executionRule: rule as 'following' | 'preceding' } : {}),
    ...(day !== undefined ? { dayOfExecution: String(Number(day)) } : {}),
  };
}

/**
 * The berlin-group payment initiation from the flags (the UK-only ones refused): a payment, a
 * standing order (--service periodic-payments and its terms) or a bulk (--service bulk-payments,
 * --payments FILE), of a JSON product or a pain.001 one (the document built here; a standing
 * order's as multipart/form-data with its terms). Shared with `flow pis`.
 */
export async function bgPayment(session: Session, flags: PisFlags): Promise<BgPaymentInitiation> {
  const service = serviceOf(flags);
  const { PAYMENT_PRODUCTS } = await import('../../dialects/berlin-group/schemas/payments.ts');
  const { XML_PAYMENT_PRODUCTS } = await import('../../dialects/berlin-group/pain001.ts');
  const products = [...PAYMENT_PRODUCTS, ...XML_PAYMENT_PRODUCTS] as readonly string[];
  const product = flags.product ?? session.profile.paths.paymentProduct;
  if (!products.includes(product)) throw new UsageError(`--product ${product}: expected one of ${products.join(', ')}`);
  const xml = (XML_PAYMENT_PRODUCTS as readonly string[]).includes(product);
  if (flags.debtorName !== undefined && !xml) throw new UsageError('--debtor-name: a berlin-group JSON payment names no debtor (the bank knows the account\'s holder); it is the pain.001 document\'s Dbtr (a pain.001-… --product)');
  const currency = parseCurrency('--currency', flags.currency ?? 'EUR');
  const debtorIban = ibanOf('--debtor-iban', flags.debtorIban, 'the paying account\'s IBAN, e.g. from obtpp accounts');
  const items = await itemsOf(flags, service, currency);
  const terms = service === 'periodic-payments' ? await standingOrderTerms(flags) : undefined;
  const summary = await summaryOf(debtorIban, items, service);
  const place = { product, ...(service !== 'payments' ? { service: service as PaymentService } : {}) };
  const order = { debtorIban, items, service, terms };
  if (xml) return { ...place, document: await pain001Document(session, flags, order), summary };
  return { ...place, json: await jsonInitiation(flags, order), summary };
}

/** What a berlin-group payment initiation is made of, once its flags are read. */
interface PaymentOrder {
  debtorIban: string;
  items: BulkItem[];
  service: string;
  terms: Awaited<ReturnType<typeof standingOrderTerms>> | undefined;
}

/** A fresh identifier's tail for the messages obtpp builds. */
const idTag = () => randomUUID().replace(/-/g, '').slice(0, 16);

/** The payment service the flags ask for, with the flags of another standard or service refused in one line. */
function serviceOf(flags: PisFlags): string {
  const ukOnly = given([['--creditor-id', flags.creditorId], ['--creditor-scheme', flags.creditorScheme], ['--debtor-id', flags.debtorId], ['--debtor-scheme', flags.debtorScheme], ['--idempotency-key', flags.idempotencyKey]]);
  if (ukOnly.length) throw new UsageError(`${ukOnly.join(', ')}: UK Open Banking terms; a berlin-group payment names --debtor-iban, --creditor-iban and --creditor-name`);
  const service = flags.service ?? 'payments';
  if (!(SERVICES as readonly string[]).includes(service)) throw new UsageError(`--service ${service}: expected one of ${SERVICES.join(', ')}`);
  const periodicFlags = given([['--start-date', flags.startDate], ['--end-date', flags.endDate], ['--frequency', flags.frequency], ['--execution-rule', flags.executionRule], ['--day-of-execution', flags.dayOfExecution]]);
  if (periodicFlags.length && service !== 'periodic-payments') throw new UsageError(`${periodicFlags.join(', ')}: a standing order's terms; add --service periodic-payments`);
  const bulkFlags = given([['--payments', flags.payments], ['--batch-booking', flags.batchBooking]]);
  if (bulkFlags.length && service !== 'bulk-payments') throw new UsageError(`${bulkFlags.join(', ')}: a bulk payment's; add --service bulk-payments`);
  return service;
}

/** The payments of the initiation: a bulk's from --payments FILE, else the one the flags name. */
async function itemsOf(flags: PisFlags, service: string, currency: string): Promise<BulkItem[]> {
  if (service === 'bulk-payments') {
    const single = given([['--amount', flags.amount], ['--creditor-iban', flags.creditorIban], ['--creditor-name', flags.creditorName], ['--reference', flags.reference]]);
    if (single.length) throw new UsageError(`${single.join(', ')}: a bulk's payments come from --payments FILE (each with creditorIban, creditorName, amount, reference)`);
    return bulkItems(required('--payments', flags.payments, 'a JSON file of the bulk\'s payments'), currency);
  }
  const creditorName = required('--creditor-name', flags.creditorName, 'the payee\'s name');
  if (creditorName.length > 70) throw new UsageError('--creditor-name: at most 70 characters');
  if ((flags.reference?.length ?? 0) > 140) throw new UsageError('--reference: at most 140 characters');
  return [{
    creditorIban: ibanOf('--creditor-iban', flags.creditorIban, 'the payee\'s IBAN'), creditorName,
    amount: parseAmount('--amount', required('--amount', flags.amount, 'the amount to pay, e.g. 25.00')), currency,
    ...(flags.reference !== undefined ? { reference: flags.reference } : {}),
  }];
}

/** What the session records of the initiation: the debtor, the amount (or the bulk's sum), the creditor or the count. */
async function summaryOf(debtorIban: string, items: BulkItem[], service: string): Promise<BgPaymentInitiation['summary']> {
  const { controlSum } = await import('../../dialects/berlin-group/pain001.ts');
  const same = items.every((i) => i.currency === items[0]!.currency);
  return {
    debtor: { SchemeName: 'IBAN', Identification: debtorIban },
    ...(same ? { amount: { Amount: items.length === 1 ? items[0]!.amount : controlSum(items.map((i) => i.amount)), Currency: items[0]!.currency } } : {}),
    ...(service === 'bulk-payments' ? { count: items.length } : { creditor: { SchemeName: 'IBAN', Identification: items[0]!.creditorIban, Name: items[0]!.creditorName } }),
  };
}

/** A pain.001 product's document (a standing order's as multipart/form-data with its terms). */
async function pain001Document(session: Session, flags: PisFlags, o: PaymentOrder): Promise<NonNullable<BgPaymentInitiation['document']>> {
  const { buildPain001, standingOrderMultipart } = await import('../../dialects/berlin-group/pain001.ts');
  const text = buildPain001({
    msgId: `obtpp-msg-${idTag()}`, paymentInfoId: `obtpp-pmt-${idTag()}`, initiatingParty: 'obtpp',
    debtorName: flags.debtorName ?? session.profile.psu.username, debtorIban: o.debtorIban,
    ...(o.terms ? { requestedExecutionDate: o.terms.startDate } : {}),
    transactions: o.items.map((i) => ({ endToEndId: `obtpp-e2e-${idTag()}`, amount: i.amount, currency: i.currency, creditorIban: i.creditorIban, creditorName: i.creditorName, ...(i.reference !== undefined ? { remittance: i.reference } : {}) })),
  });
  return o.terms ? standingOrderMultipart(text, o.terms).then((m) => ({ text: m.body, contentType: m.contentType })) : { text, contentType: 'application/xml' };
}

/** A JSON product's body: a bulk, a standing order, or one payment. */
async function jsonInitiation(flags: PisFlags, o: PaymentOrder): Promise<NonNullable<BgPaymentInitiation['json']>> {
  const b = await import('../../dialects/berlin-group/builders.ts');
  const one = o.items[0]!;
  const single = {
    debtor: { iban: o.debtorIban }, creditor: { iban: one.creditorIban }, creditorName: one.creditorName, amount: one.amount, currency: one.currency,
    endToEndIdentification: `obtpp-e2e-${idTag()}`, ...(one.reference !== undefined ? { remittance: one.reference } : {}),
  };
  if (o.service === 'bulk-payments') {
    return b.buildBulkPayment({
      debtor: { iban: o.debtorIban }, ...(flags.batchBooking ? { batchBookingPreferred: true } : {}),
      payments: o.items.map((i) => ({ amount: i.amount, currency: i.currency, creditor: { iban: i.creditorIban }, creditorName: i.creditorName, endToEndIdentification: `obtpp-e2e-${idTag()}`, ...(i.reference !== undefined ? { remittance: i.reference } : {}) })),
    });
  }
  return o.terms ? b.buildPeriodicPayment({ ...single, ...o.terms }) : (b.buildPaymentInitiation(single) as unknown as Record<string, unknown>);
}

/** berlin-group: GET /v1/consents/{consentId} (the account-information consents obtpp creates there). */
export async function get(session: Session, out: Out, record: ConsentRecord): Promise<void> {
  if (record.fn === 'pis') throw new UsageError(`${record.id} is a payment, not a consent: obtpp payment get ${record.id} reads it`);
  const { readBgConsent } = await import('../../session/berlin-group.ts');
  const result = await out.step(`reading consent ${record.id} (GET /v1/consents/{consentId})`, () => readBgConsent(session, record));
  if (out.json) return out.document(result.body);
  const b = (result.body ?? {}) as Record<string, unknown>;
  const rows: Array<[string, unknown]> = [
    ['consentId', record.id], ['consentStatus', b.consentStatus], ['validUntil', b.validUntil], ['frequencyPerDay', b.frequencyPerDay],
    ['recurring', b.recurringIndicator], ['lastActionDate', b.lastActionDate],
  ];
  for (const [k, v] of rows) if (v !== undefined) out.line(`${out.c.dim(k.padEnd(15))} ${String(v)}`);
}

/** DELETE /v1/consents/{consentId}: the bank reads it terminatedByTpp; a payment is cancelled instead. */
export async function del(session: Session, out: Out, record: ConsentRecord): Promise<void> {
  if (record.fn === 'pis') throw new UsageError(`${record.id} is a payment, not a consent: DELETE /v1/consents/{consentId} cannot end it (obtpp payment cancel ${record.id} cancels it)`);
  const { deleteBgConsent } = await import('../../session/berlin-group.ts');
  const result = await out.step(`deleting consent ${record.id} (DELETE /v1/consents/{consentId})`, () => deleteBgConsent(session, record));
  if (out.json) return out.document({ consentId: record.id, fn: record.fn, deleted: true, status: result.status });
  return out.line(`deleted consent ${record.id} (${result.status}): the bank reads it terminatedByTpp; its tokens are forgotten`);
}
