import { randomUUID } from 'node:crypto';
import type { Io } from '../io.ts';
import type { CommonFlags, Out } from '../output.ts';
import { table } from '../output.ts';
import { consentArg, withSession, when } from './common.ts';
import { FN_NAMES, kindOf, type AuthoriseOutcome, type ConsentRecord, type InAppRequest, type Session } from '../../session/index.ts';
import { parseAmount, parseCurrency, parseList, parsePermissions, parseWhen, required, text35 } from '../../session/parse.ts';
import { buildAccountAccessConsent, buildFundsConsent, buildPaymentConsent, statusOf, type AccountRef } from '../../dialects/obie/builders.ts';
import { UsageError } from '../../errors.ts';
import type { Fn } from '../../profile/types.ts';
import type { AccountAccess } from '../../dialects/berlin-group/builders.ts';
import type { BgPaymentInitiation, PaymentService } from '../../session/berlin-group.ts';

export const DEFAULT_PERMISSIONS = 'ReadAccountsDetail,ReadBalances,ReadTransactionsDetail,ReadTransactionsCredits,ReadTransactionsDebits';
const SORT_CODE = 'UK.OBIE.SortCodeAccountNumber';

export interface AisFlags extends CommonFlags {
  permissions?: string; expires?: string; from?: string; to?: string;
  /** berlin-group only: the consent's access form. */
  access?: string;
}
export interface CofFlags extends CommonFlags { debtorScheme?: string; debtorId?: string; debtorName?: string; expires?: string }
export interface PisFlags extends CommonFlags {
  amount?: string; currency?: string; creditorId?: string; creditorName?: string; creditorScheme?: string;
  debtorId?: string; debtorScheme?: string; debtorName?: string; reference?: string; idempotencyKey?: string;
  /** berlin-group only. */
  product?: string; creditorIban?: string; debtorIban?: string;
  service?: string; startDate?: string; endDate?: string; frequency?: string; executionRule?: string; dayOfExecution?: string;
  payments?: string; batchBooking?: boolean;
}

/** The request body and local summary of an account-access consent from its flags. */
export function aisConsent(flags: AisFlags) {
  if (flags.access !== undefined) throw new UsageError('--access is a berlin-group term (a NextGenPSD2 consent\'s access form): a UK consent names its Permissions (--permissions)');
  const permissions = parsePermissions('--permissions', flags.permissions ?? DEFAULT_PERMISSIONS);
  const expiration = parseWhen('--expires', flags.expires ?? '+90d');
  const from = parseWhen('--from', flags.from ?? '-90d');
  const to = parseWhen('--to', flags.to ?? 'now');
  if (Date.parse(from) > Date.parse(to)) throw new UsageError(`--from ${flags.from ?? '-90d'} is after --to ${flags.to ?? 'now'}`);
  const body = buildAccountAccessConsent({ permissions, expirationDateTime: expiration, transactionFromDateTime: from, transactionToDateTime: to });
  return { body, summary: { permissions, expiration, transactionFrom: from, transactionTo: to } };
}

/** A debtor from flags: an AccountId obtpp has seen in a listing is turned into its identification. */
export async function debtorFrom(session: Session, flags: { debtorId?: string; debtorScheme?: string; debtorName?: string }): Promise<AccountRef | undefined> {
  if (flags.debtorId === undefined) return undefined;
  const ps = await session.read();
  const known = Object.values(ps.consents).flatMap((c) => c.accounts ?? []).find((a) => a.AccountId === flags.debtorId && a.Identification);
  if (known && !flags.debtorScheme) {
    return { schemeName: known.SchemeName ?? SORT_CODE, identification: known.Identification!, ...(flags.debtorName ?? known.Name ? { name: flags.debtorName ?? known.Name } : {}) };
  }
  return { schemeName: flags.debtorScheme ?? SORT_CODE, identification: flags.debtorId, ...(flags.debtorName ? { name: flags.debtorName } : {}) };
}

const wire = (a: AccountRef) => ({ SchemeName: a.schemeName, Identification: a.identification, ...(a.name ? { Name: a.name } : {}) });

export async function cofConsent(session: Session, flags: CofFlags) {
  required('--debtor-id', flags.debtorId, 'the debtor account\'s identification (e.g. sort code + account number 40400411290112), or an AccountId listed by obtpp accounts');
  const debtor = (await debtorFrom(session, flags))!;
  const expiration = flags.expires === undefined ? undefined : parseWhen('--expires', flags.expires);
  const body = buildFundsConsent({ debtorAccount: debtor, ...(expiration ? { expirationDateTime: expiration } : {}) });
  return { body, summary: { debtor: wire(debtor), ...(expiration ? { expiration } : {}) } };
}

export async function pisConsent(session: Session, flags: PisFlags) {
  const bgOnly = given([['--product', flags.product], ['--creditor-iban', flags.creditorIban], ['--debtor-iban', flags.debtorIban], ['--service', flags.service], ['--start-date', flags.startDate],
    ['--end-date', flags.endDate], ['--frequency', flags.frequency], ['--execution-rule', flags.executionRule], ['--day-of-execution', flags.dayOfExecution], ['--payments', flags.payments], ['--batch-booking', flags.batchBooking]]);
  if (bgOnly.length) throw new UsageError(`${bgOnly.join(', ')}: berlin-group terms; a UK payment-order consent names --creditor-id and --debtor-id (with their schemes)`);
  const amount = parseAmount('--amount', required('--amount', flags.amount, 'the amount to pay, e.g. 25.00'));
  const currency = parseCurrency('--currency', flags.currency ?? 'GBP');
  const creditorId = required('--creditor-id', flags.creditorId, 'the payee\'s account identification (e.g. sort code + account number)');
  const creditorName = text35('--creditor-name', required('--creditor-name', flags.creditorName, 'the payee\'s name'));
  const creditor = { schemeName: flags.creditorScheme ?? SORT_CODE, identification: creditorId, name: creditorName };
  const debtor = await debtorFrom(session, flags);
  const reference = flags.reference === undefined ? undefined : text35('--reference', flags.reference);
  const tag = randomUUID().replace(/-/g, '').slice(0, 16);
  const body = buildPaymentConsent({
    instructionIdentification: `obtpp-${tag}`,
    endToEndIdentification: `obtpp-e2e-${tag}`,
    amount, currency, creditor,
    ...(debtor ? { debtor } : {}),
    ...(reference ? { remittance: { reference } } : {}),
    // A UK Read/Write v4.0 bank takes v4.0's structured remittance information.
    version: session.profile.standard === 'uk-4.0' ? 'v4.0' : 'v3.1',
  });
  return { body, summary: { amount: { Amount: amount, Currency: currency }, creditor: wire(creditor), ...(debtor ? { debtor: wire(debtor) } : {}) } };
}

function created(out: Out, record: ConsentRecord): void {
  out.line(`created ${FN_NAMES[record.fn]} ${out.c.bold(record.id)} (${record.status}); next: obtpp consent authorise`);
}

/** The speakers of both dialects (the rest speak obie only, so far). */
const BOTH = { dialects: ['obie', 'berlin-group'] } as const;

export async function createAis(io: Io, flags: AisFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    if (session.profile.dialect === 'berlin-group') return createBgAis(session, out, flags);
    const { body, summary } = aisConsent(flags);
    const { result, record } = await out.step('creating the account-access consent', () => session.createConsent('ais', body, summary));
    if (out.json) return out.document(result.body);
    created(out, record);
  }, BOTH);
}

/**
 * berlin-group: a recurring consent, bank-offered by default (the PSU picks the accounts at the
 * bank) for accounts, balances and transactions, or of a global form (--access), valid until
 * --expires (a date), 4 accesses a day.
 */
async function createBgAis(session: Session, out: Out, flags: AisFlags): Promise<void> {
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

export async function createCof(io: Io, flags: CofFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const { body, summary } = await cofConsent(session, flags);
    const { result, record } = await out.step('creating the funds-confirmation consent', () => session.createConsent('cof', body, summary));
    if (out.json) return out.document(result.body);
    created(out, record);
  });
}

export async function createPis(io: Io, flags: PisFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    if (session.profile.dialect === 'berlin-group') return createBgPis(session, out, flags);
    const { body, summary } = await pisConsent(session, flags);
    const { result, record } = await out.step('creating the payment-order consent', () => session.createConsent('pis', body, summary, flags.idempotencyKey));
    if (out.json) return out.document(result.body);
    created(out, record);
    out.line(`PaymentId ${record.id}: obtpp payment get ${record.id} once authorised`);
  }, BOTH);
}

/** berlin-group: the payment itself, POST /v1/{payment-service}/{payment-product}, with the SCA link it answers. */
async function createBgPis(session: Session, out: Out, flags: PisFlags): Promise<void> {
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
  const ukOnly = given([['--creditor-id', flags.creditorId], ['--creditor-scheme', flags.creditorScheme], ['--debtor-id', flags.debtorId], ['--debtor-scheme', flags.debtorScheme], ['--idempotency-key', flags.idempotencyKey]]);
  if (ukOnly.length) throw new UsageError(`${ukOnly.join(', ')}: UK Open Banking terms; a berlin-group payment names --debtor-iban, --creditor-iban and --creditor-name`);
  const service = flags.service ?? 'payments';
  if (!(SERVICES as readonly string[]).includes(service)) throw new UsageError(`--service ${service}: expected one of ${SERVICES.join(', ')}`);
  const periodicFlags = given([['--start-date', flags.startDate], ['--end-date', flags.endDate], ['--frequency', flags.frequency], ['--execution-rule', flags.executionRule], ['--day-of-execution', flags.dayOfExecution]]);
  if (periodicFlags.length && service !== 'periodic-payments') throw new UsageError(`${periodicFlags.join(', ')}: a standing order's terms; add --service periodic-payments`);
  const bulkFlags = given([['--payments', flags.payments], ['--batch-booking', flags.batchBooking]]);
  if (bulkFlags.length && service !== 'bulk-payments') throw new UsageError(`${bulkFlags.join(', ')}: a bulk payment's; add --service bulk-payments`);
  const { PAYMENT_PRODUCTS } = await import('../../dialects/berlin-group/schemas/payments.ts');
  const { XML_PAYMENT_PRODUCTS } = await import('../../dialects/berlin-group/pain001.ts');
  const products = [...PAYMENT_PRODUCTS, ...XML_PAYMENT_PRODUCTS] as readonly string[];
  const product = flags.product ?? session.profile.paths.paymentProduct;
  if (!products.includes(product)) throw new UsageError(`--product ${product}: expected one of ${products.join(', ')}`);
  const xml = (XML_PAYMENT_PRODUCTS as readonly string[]).includes(product);
  if (flags.debtorName !== undefined && !xml) throw new UsageError('--debtor-name: a berlin-group JSON payment names no debtor (the bank knows the account\'s holder); it is the pain.001 document\'s Dbtr (a pain.001-… --product)');
  const currency = parseCurrency('--currency', flags.currency ?? 'EUR');
  const debtorIban = ibanOf('--debtor-iban', flags.debtorIban, 'the paying account\'s IBAN, e.g. from obtpp accounts');
  const tag = () => randomUUID().replace(/-/g, '').slice(0, 16);
  let items: BulkItem[];
  if (service === 'bulk-payments') {
    const single = given([['--amount', flags.amount], ['--creditor-iban', flags.creditorIban], ['--creditor-name', flags.creditorName], ['--reference', flags.reference]]);
    if (single.length) throw new UsageError(`${single.join(', ')}: a bulk's payments come from --payments FILE (each with creditorIban, creditorName, amount, reference)`);
    items = await bulkItems(required('--payments', flags.payments, 'a JSON file of the bulk\'s payments'), currency);
  } else {
    const creditorName = required('--creditor-name', flags.creditorName, 'the payee\'s name');
    if (creditorName.length > 70) throw new UsageError('--creditor-name: at most 70 characters');
    if ((flags.reference?.length ?? 0) > 140) throw new UsageError('--reference: at most 140 characters');
    items = [{
      creditorIban: ibanOf('--creditor-iban', flags.creditorIban, 'the payee\'s IBAN'), creditorName,
      amount: parseAmount('--amount', required('--amount', flags.amount, 'the amount to pay, e.g. 25.00')), currency,
      ...(flags.reference !== undefined ? { reference: flags.reference } : {}),
    }];
  }
  const terms = service === 'periodic-payments' ? await standingOrderTerms(flags) : undefined;
  const { controlSum } = await import('../../dialects/berlin-group/pain001.ts');
  const same = items.every((i) => i.currency === items[0]!.currency);
  const summary = {
    debtor: { SchemeName: 'IBAN', Identification: debtorIban },
    ...(same ? { amount: { Amount: items.length === 1 ? items[0]!.amount : controlSum(items.map((i) => i.amount)), Currency: items[0]!.currency } } : {}),
    ...(service === 'bulk-payments' ? { count: items.length } : { creditor: { SchemeName: 'IBAN', Identification: items[0]!.creditorIban, Name: items[0]!.creditorName } }),
  };
  const place = { product, ...(service !== 'payments' ? { service: service as PaymentService } : {}) };
  if (xml) {
    const { buildPain001, standingOrderMultipart } = await import('../../dialects/berlin-group/pain001.ts');
    const text = buildPain001({
      msgId: `obtpp-msg-${tag()}`, paymentInfoId: `obtpp-pmt-${tag()}`, initiatingParty: 'obtpp',
      debtorName: flags.debtorName ?? session.profile.psu.username, debtorIban,
      ...(terms ? { requestedExecutionDate: terms.startDate } : {}),
      transactions: items.map((i) => ({ endToEndId: `obtpp-e2e-${tag()}`, amount: i.amount, currency: i.currency, creditorIban: i.creditorIban, creditorName: i.creditorName, ...(i.reference !== undefined ? { remittance: i.reference } : {}) })),
    });
    const document = terms ? await standingOrderMultipart(text, terms).then((m) => ({ text: m.body, contentType: m.contentType })) : { text, contentType: 'application/xml' };
    return { ...place, document, summary };
  }
  const b = await import('../../dialects/berlin-group/builders.ts');
  const one = items[0]!;
  const single = {
    debtor: { iban: debtorIban }, creditor: { iban: one.creditorIban }, creditorName: one.creditorName, amount: one.amount, currency: one.currency,
    endToEndIdentification: `obtpp-e2e-${tag()}`, ...(one.reference !== undefined ? { remittance: one.reference } : {}),
  };
  const json = service === 'bulk-payments'
    ? b.buildBulkPayment({
      debtor: { iban: debtorIban }, ...(flags.batchBooking ? { batchBookingPreferred: true } : {}),
      payments: items.map((i) => ({ amount: i.amount, currency: i.currency, creditor: { iban: i.creditorIban }, creditorName: i.creditorName, endToEndIdentification: `obtpp-e2e-${tag()}`, ...(i.reference !== undefined ? { remittance: i.reference } : {}) })),
    })
    : terms ? b.buildPeriodicPayment({ ...single, ...terms }) : (b.buildPaymentInitiation(single) as unknown as Record<string, unknown>);
  return { ...place, json, summary };
}

/**
 * GET of a consent: account-access consents (UK, both variants), funds-confirmation consents
 * (variant A) and payment-order consents (the payment).
 */
export async function get(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const record = await session.consent(undefined, consentArg(id, flags));
    if (session.profile.dialect === 'berlin-group') {
      if (record.fn === 'pis') throw new UsageError(`${record.id} is a payment, not a consent: obtpp payment get ${record.id} reads it`);
      return getBg(session, out, record);
    }
    const c = session.client;
    const result = session.check(
      await session.withClientToken(record.fn, (token) =>
        record.fn === 'ais' ? c.getAccountAccessConsent(record.id, { token }) : record.fn === 'cof' ? c.getFundsConsent(record.id, { token }) : c.getPayment(record.id, { token })),
      [200],
    );
    await session.rememberStatus(record.id, statusOf(result.body));
    if (out.json) return out.document(result.body);
    printConsentBody(out, record, result.body);
  }, BOTH);
}

/** berlin-group: GET /v1/consents/{consentId} (the account-information consents obtpp creates there). */
async function getBg(session: Session, out: Out, record: ConsentRecord): Promise<void> {
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

function printConsentBody(out: Out, record: ConsentRecord, body: unknown): void {
  const data = ((body as { Data?: Record<string, any> })?.Data ?? {}) as Record<string, any>;
  const rows: Array<[string, string | undefined]> = [
    ['ConsentId', data.ConsentId], ['Status', data.Status], ['Kind', FN_NAMES[record.fn]],
    ['Created', data.CreationDateTime], ['Status updated', data.StatusUpdateDateTime], ['Expires', data.ExpirationDateTime],
  ];
  if (Array.isArray(data.Permissions)) rows.push(['Permissions', data.Permissions.join(', ')]);
  if (data.TransactionFromDateTime || data.TransactionToDateTime) rows.push(['Transactions', `${data.TransactionFromDateTime ?? '…'} to ${data.TransactionToDateTime ?? '…'}`]);
  const debtor = data.DebtorAccount ?? data.Initiation?.DebtorAccount ?? data.Debtor;
  if (debtor) rows.push(['Debtor', `${debtor.Identification} (${debtor.SchemeName}${debtor.Name ? `, ${debtor.Name}` : ''})`]);
  const init = data.Initiation;
  if (init?.InstructedAmount) rows.push(['Amount', `${init.InstructedAmount.Amount} ${init.InstructedAmount.Currency}`]);
  if (init?.CreditorAccount) rows.push(['Creditor', `${init.CreditorAccount.Identification} (${init.CreditorAccount.Name})`]);
  for (const [k, v] of rows) if (v !== undefined) out.line(`${out.c.dim(k.padEnd(15))} ${v}`);
}

export async function del(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const chosen = consentArg(id, flags);
    // berlin-group: without an id, the current consent (never the last thing created, which may be a payment).
    const record = await session.consent(session.profile.dialect === 'berlin-group' && chosen === undefined ? 'ais' : undefined, chosen);
    if (session.profile.dialect === 'berlin-group') {
      if (record.fn === 'pis') throw new UsageError(`${record.id} is a payment, not a consent: DELETE /v1/consents/{consentId} cannot end it (obtpp payment cancel ${record.id} cancels it)`);
      const { deleteBgConsent } = await import('../../session/berlin-group.ts');
      const result = await out.step(`deleting consent ${record.id} (DELETE /v1/consents/{consentId})`, () => deleteBgConsent(session, record));
      if (out.json) return out.document({ consentId: record.id, fn: record.fn, deleted: true, status: result.status });
      return out.line(`deleted consent ${record.id} (${result.status}): the bank reads it terminatedByTpp; its tokens are forgotten`);
    }
    if (record.fn === 'pis') {
      throw new UsageError(`${FN_NAMES[record.fn]} ${record.id}: the specification has no DELETE for it (obtpp consent forget ${record.id} drops it from the session state)`);
    }
    const fn = record.fn;
    const c = session.client;
    const result = session.check(
      await session.withClientToken(fn, (token) => fn === 'ais' ? c.deleteAccountAccessConsent(record.id, { token }) : c.deleteFundsConsent(record.id, { token })),
      [200, 204],
    );
    await session.update((s) => {
      const r = s.consents[record.id];
      if (r) r.status = 'Deleted';
      delete s.tokens[record.id];
      if (s.current[fn] === record.id) delete s.current[fn];
    });
    if (out.json) return out.document({ consentId: record.id, fn: record.fn, deleted: true, status: result.status });
    out.line(`deleted ${FN_NAMES[fn]} ${record.id} (${result.status}); its tokens are forgotten`);
  }, BOTH);
}

export async function forget(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string }): Promise<void> {
  const chosen = consentArg(id, flags);
  if (chosen === undefined) throw new UsageError('consent forget needs the consent: obtpp consent forget ID (see obtpp consent list)');
  await withSession(io, flags, async (session, out) => {
    const record = await session.consent(undefined, chosen);
    await session.update((s) => {
      delete s.consents[record.id];
      delete s.tokens[record.id];
      for (const fn of ['ais', 'cof', 'pis'] as const) if (s.current[fn] === record.id) delete s.current[fn];
      if (s.last === record.id) delete s.last;
    });
    if (out.json) return out.document({ consentId: record.id, fn: record.fn, forgotten: true });
    out.line(`forgot ${kindOf(session.profile.dialect, record.fn)} ${record.id} and its tokens (the bank still has it)`);
  });
}

export async function list(io: Io, flags: CommonFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    // berlin-group: a consent's status changes at the bank (a newer recurring consent expires the
    // former, the PSU revokes one): each status not yet final is read afresh.
    const unread = session.profile.dialect === 'berlin-group' ? await (await import('../../session/berlin-group.ts')).refreshBgStatuses(session) : {};
    const ps = await session.read();
    const now = Date.now();
    const rows = Object.values(ps.consents).sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map((r) => {
      const t = ps.tokens[r.id];
      const token = !t ? 'none' : t.expiresAt === undefined || t.expiresAt > now ? 'valid' : t.refreshToken ? 'expired (refreshable)' : 'expired';
      return { ...r, current: ps.current[r.fn] === r.id, token, ...(t?.expiresAt ? { tokenExpiresAt: new Date(t.expiresAt).toISOString() } : {}), ...(unread[r.id] ? { statusNotRead: unread[r.id] } : {}) };
    });
    if (out.json) return out.document({ profile: session.profile.name, variant: session.variant, state: session.state.path, consents: rows });
    if (rows.length === 0) {
      out.line(`no consents yet for ${session.profile.name} (variant ${session.variant}); create one: obtpp consent create ais`);
      return;
    }
    out.block(table(['', 'CONSENT', 'KIND', 'STATUS', 'CREATED', 'EXPIRES', 'TOKEN', 'WHAT'], rows.map((r) => [
      r.current ? '*' : '', r.id, r.fn, r.statusNotRead ? `${r.status} (as last read)` : r.status, when(r.createdAt), r.expiration ? when(r.expiration) : '—', r.token, summary(r),
    ]), out.c));
    for (const r of rows) if (r.statusNotRead) out.line(out.c.dim(`${r.id}: status not read afresh: ${r.statusNotRead}`));
    out.line(out.c.dim('* the current consent of its kind (used when --consent is not given)'));
  }, BOTH);
}

function summary(r: ConsentRecord): string {
  if (r.fn === 'ais' && r.access) return `${accessOf(r.access)}${r.accountIds?.length ? `; accounts ${r.accountIds.join(', ')}` : ''}`;
  if (r.fn === 'ais' && r.sca) return `access not recorded${r.accountIds?.length ? `; accounts ${r.accountIds.join(', ')}` : ''}`;
  if (r.fn === 'ais') return `${r.permissions?.length ?? 0} permissions${r.accountIds?.length ? `; accounts ${r.accountIds.join(', ')}` : ''}`;
  if (r.fn === 'cof') return `debtor ${r.debtor?.Identification ?? '?'}`;
  const to = r.count !== undefined ? `in ${r.count} payment${r.count === 1 ? '' : 's'}` : `to ${r.creditor?.Name ?? r.creditor?.Identification ?? '?'}`;
  return `${r.amount?.Amount ?? '?'} ${r.amount?.Currency ?? ''} ${to}${r.debtor ? ` from ${r.debtor.Identification}` : ''}`;
}

/**
 * What a NextGenPSD2 consent's `access` grants, in its own words: the services (accounts,
 * balances, transactions) with the accounts named, or "the PSU picks" for empty lists (a
 * bank-offered consent), or the global form (allPsd2, availableAccounts…).
 */
export function accessOf(access: Record<string, unknown>): string {
  const global = ['allPsd2', 'availableAccounts', 'availableAccountsWithBalance'].find((k) => access[k] !== undefined);
  if (global) return `${global}: ${String(access[global])}`;
  const services = ['accounts', 'balances', 'transactions'].filter((k) => Array.isArray(access[k]));
  if (!services.length) return 'no access named';
  const named = services.map((k) => access[k] as unknown[]);
  const ids = [...new Set(named.flat().map((a) => (a && typeof a === 'object' ? String((a as Record<string, unknown>).iban ?? (a as Record<string, unknown>).maskedPan ?? (a as Record<string, unknown>).pan ?? '?') : '?')))];
  return `${services.join(', ')}${ids.length ? ` of ${ids.join(', ')}` : ' (the PSU picks the accounts)'}`;
}

export interface AuthoriseFlags extends CommonFlags {
  consent?: string; accounts?: string; debtor?: string; reject?: boolean; manual?: boolean; callbackPort?: string;
  psuId?: string; passwordStdin?: boolean; otpStdin?: boolean; timeout?: string;
}

/**
 * What the PSU gives obtpp for an SCA that is not the redirect page's: --psu-id, the password and
 * the one-time password from stdin (they win over the profile; read in the order of the flags'
 * help), --timeout of a decoupled SCA. Shared with `basket authorise`.
 */
export async function inAppRequest(out: Out, flags: AuthoriseFlags, log: (line: string) => void): Promise<InAppRequest> {
  let timeoutMs: number | undefined;
  if (flags.timeout !== undefined) {
    const seconds = Number(flags.timeout);
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) throw new UsageError(`--timeout ${flags.timeout}: a number of seconds (above 0, at most 3600)`);
    timeoutMs = seconds * 1000;
  }
  const { stdinLines } = await import('../secret-input.ts');
  const lines = stdinLines(out.io, flags.passwordStdin === true, flags.otpStdin === true);
  const password = flags.passwordStdin ? await lines('password') : undefined;
  const otp = flags.otpStdin ? await lines('one-time password') : undefined;
  return {
    ...(flags.psuId ? { psuId: flags.psuId } : {}),
    ...(password ? { password } : {}),
    ...(otp ? { otp } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    secret: lines,
    log,
  };
}

/** The PSU journey for a consent; shared with `flow`. */
export async function authoriseConsent(session: Session, out: Out, record: ConsentRecord, flags: AuthoriseFlags): Promise<AuthoriseOutcome> {
  let callbackPort: number | undefined;
  if (flags.callbackPort !== undefined) {
    callbackPort = Number(flags.callbackPort);
    if (!Number.isInteger(callbackPort) || callbackPort < 0 || callbackPort > 65535) throw new UsageError(`--callback-port ${flags.callbackPort}: not a port number (0–65535)`);
  }
  const manual = flags.manual === true || callbackPort !== undefined || session.profile.psu.driver.kind === 'manual';
  const request = {
    accounts: parseList(flags.accounts), debtor: flags.debtor, reject: flags.reject === true,
    manual: flags.manual === true, callbackPort,
    log: (line: string) => void out.io.stderr.write(line + '\n'),
  };
  const approach = record.sca?.approach;
  const inApp = approach === 'decoupled' || approach === 'embedded';
  // The redirect approach takes a PSU too: the next PSU of a multilevel SCA (a payment reading PATC).
  const named = session.profile.dialect === 'berlin-group' && approach === 'redirect';
  if (!inApp && !named && (flags.psuId !== undefined || flags.passwordStdin)) {
    throw new UsageError('--psu-id and --password-stdin are for a berlin-group profile\'s SCA by redirect, decoupled or embedded');
  }
  if (!inApp && (flags.otpStdin || flags.timeout !== undefined)) {
    throw new UsageError('--otp-stdin and --timeout are for the decoupled and embedded SCA approaches of a berlin-group profile');
  }
  if (named && (flags.psuId !== undefined || flags.passwordStdin)) Object.assign(request, { inApp: await inAppRequest(out, flags, request.log) });
  if (inApp && flags.reject) throw new UsageError(`--reject: in the ${approach} SCA approach the PSU rejects in the banking app (decoupled) or by a wrong one-time password (embedded), not through obtpp`);
  if (inApp) {
    Object.assign(request, { inApp: await inAppRequest(out, flags, request.log) });
    // No spinner over the instructions (decoupled) or a prompt (embedded).
    return (await import('../../session/berlin-group.ts')).authoriseBg(session, record, request);
  }
  const doing = `${flags.reject ? 'rejecting' : 'authorising'} ${kindOf(session.profile.dialect, record.fn)} ${record.id} as the PSU${manual ? '' : ' (headless Chromium)'}`;
  const run = session.profile.dialect === 'berlin-group'
    ? async () => (await import('../../session/berlin-group.ts')).authoriseBg(session, record, request)
    : () => session.authorise(record, request);
  // Manual mode prints instructions on stderr: no spinner over them.
  const outcome = manual ? await run() : await out.step(doing, run, (o) => describeOutcome(o, session.profile.dialect));
  return outcome;
}

export function describeOutcome(o: AuthoriseOutcome, dialect?: string): string {
  const kind = kindOf(dialect, o.fn);
  if (o.status === 'refused') return `the bank refused the authorisation request for ${kind} ${o.consentId}: ${o.error}${o.description ? ` (${o.description})` : ''}; the ${kind} is unchanged`;
  // The PSU approved and the bank said no (a payment RJCT for want of funds): the bank's decision, not the PSU's.
  if (o.status === 'rejected' && o.by === 'bank') return `the bank rejected ${kind} ${o.consentId} after the PSU's SCA: ${o.error}${o.description ? ` (${o.description})` : ''}`;
  if (o.status === 'rejected') return `the PSU rejected ${kind} ${o.consentId}: the bank answered ${o.error}${o.description ? ` (${o.description})` : ''}`;
  const parts = [`authorised ${kind} ${o.consentId}`];
  if (o.accounts.length) parts.push(`accounts ${o.accounts.join(', ')}`);
  if (o.debtor) parts.push(`debtor ${o.debtor}`);
  if (o.expiresAt) parts.push(`token until ${when(o.expiresAt)}`);
  return parts.join('; ');
}

export async function authorise(io: Io, id: string | undefined, flags: AuthoriseFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const record = await session.consent(undefined, consentArg(id, flags));
    const outcome = await authoriseConsent(session, out, record, flags);
    // The rejection asked for: access_denied (OAuth2), or a berlin-group consent read rejected / payment RJCT after the redirect SCA.
    const asked = outcome.status === 'rejected' && (outcome.error === 'access_denied' || (flags.reject === true && ['rejected', 'RJCT'].includes(outcome.error)));
    if (outcome.status !== 'authorised' && !asked) io.exitCode = 1;
    if (out.json) return out.document(outcome);
    out.line(describeOutcome(outcome, session.profile.dialect));
    const status = (await session.read()).consents[record.id]?.status;
    if (outcome.status === 'authorised' && record.fn === 'pis' && status === 'PATC') {
      // Multilevel SCA: the bank awaits another PSU's (it said so: partially accepted).
      const done = flags.psuId ?? session.profile.psu.username;
      const other = session.profile.sca?.multilevel?.psu.username;
      out.line(`payment ${record.id} reads PATC: the bank awaits another PSU's SCA; next: obtpp consent authorise ${record.id} --psu-id ${other && other !== done ? other : 'PSU-ID'}`);
    } else if (outcome.status === 'authorised') out.line(record.vrp ? 'next: obtpp vrp pay --amount AMOUNT (as often as the consent\'s limits allow)' : next(record.fn, session.profile.dialect));
  }, BOTH);
}

function next(fn: Fn, dialect?: string): string {
  if (fn === 'ais') return 'next: obtpp accounts';
  if (dialect === 'berlin-group') return 'next: obtpp payment status';
  if (fn === 'cof') return 'next: obtpp funds confirm --amount 10.00 --currency GBP';
  return 'next: obtpp payment get';
}
