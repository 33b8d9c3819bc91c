/**
 * The payment families of UK Read/Write v3.1.11 from the terminal (a profile with `standard:
 * uk-3.1`): `obtpp pay create --type FAMILY` makes the family's consent (a file payment's with its
 * file uploaded), `obtpp consent authorise` lets the PSU authorise it, `obtpp pay submit` sends its
 * order (the consent's Initiation and Risk as the bank holds them), `obtpp pay get` reads the
 * consent, the order or the order's payment details. Chained by the session state: the current
 * payment-family consent is kept apart from the domestic payment-order consent of `obtpp payment`.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Io } from '../io.ts';
import type { CommonFlags, Out } from '../output.ts';
import { str } from '../output.ts';
import { consentArg, withSession } from './common.ts';
import { debtorFrom } from '../obie/consent.ts';
import { BankError, StateError, UsageError } from '../../errors.ts';
import { parseAmount, parseCurrency, parseWhen, required, text35 } from '../../session/parse.ts';
import type { ConsentRecord, Session } from '../../session/index.ts';
import type { Operation } from '../../client/operations.ts';
import { catalogueOf, groupOf } from '../../dialects/catalogue.ts';
import { standards } from '../../standards/registry.ts';
import { buildPaymentConsent } from '../../dialects/obie/builders.ts';
import {
  buildDomesticScheduledConsent, buildDomesticStandingOrderConsent, buildFamilyOrder, buildFileConsent, buildInternationalConsent,
  buildInternationalScheduledConsent, buildInternationalStandingOrderConsent, controlSumOf, familyOrderIdOf, fileHashOf, isFrequency,
  JSON_PAYMENT_FILE_TYPE, PAYMENT_FAMILIES, type ExchangeRateRequest, type FamilyConsentBody, type PaymentFamily, type PaymentFile,
} from '../../dialects/obie/payment-family-builders.ts';

const SORT_CODE = 'UK.OBIE.SortCodeAccountNumber';

/** A family's operations: the profile's catalogue's payment-family group (`group: { kind: 'payment-family', of: family, … }`). */
interface FamilyOps { create: Operation; get: Operation; submit: Operation; order: Operation; details: Operation }
function opsOf(session: Session, family: PaymentFamily): FamilyOps {
  // A standard without the family: the operations of the first that has it, which the client then says it lacks.
  const catalogue = [catalogueOf(session.client.dialect), ...standards().map((s) => s.catalogue)].find((c) => groupOf(c, 'payment-family', family).create);
  return groupOf(catalogue ?? {}, 'payment-family', family) as unknown as FamilyOps;
}

export interface PayCreateFlags extends CommonFlags {
  type?: string;
  amount?: string; currency?: string;
  creditorId?: string; creditorName?: string; creditorScheme?: string;
  debtorId?: string; debtorScheme?: string; debtorName?: string;
  reference?: string;
  executionDate?: string;
  frequency?: string; firstPaymentDate?: string; finalPaymentDate?: string; payments?: string; recurringAmount?: string; finalAmount?: string;
  currencyOfTransfer?: string; rateType?: string; rate?: string; contract?: string; chargeBearer?: string;
  file?: string; fileType?: string; transactions?: string; controlSum?: string;
  idempotencyKey?: string;
}

const CHARGE_BEARERS = ['BorneByCreditor', 'BorneByDebtor', 'FollowingServiceLevel', 'Shared'] as const;

function familyOf(value: string | undefined): PaymentFamily {
  const v = required('--type', value, `the payment family: ${PAYMENT_FAMILIES.join(', ')}`);
  const family = PAYMENT_FAMILIES.find((f) => f === v.toLowerCase());
  if (!family) throw new UsageError(`--type ${v}: expected one of ${PAYMENT_FAMILIES.join(', ')}`);
  return family;
}

/** Flags that belong to other families are refused rather than silently dropped. */
function refuseOthers(flags: PayCreateFlags, family: PaymentFamily, allowed: ReadonlyArray<keyof PayCreateFlags>): void {
  const specific: Array<[keyof PayCreateFlags, string]> = [
    ['executionDate', '--execution-date'], ['frequency', '--frequency'], ['firstPaymentDate', '--first-payment-date'], ['finalPaymentDate', '--final-payment-date'],
    ['payments', '--payments'], ['recurringAmount', '--recurring-amount'], ['finalAmount', '--final-amount'], ['currencyOfTransfer', '--currency-of-transfer'],
    ['rateType', '--rate-type'], ['rate', '--rate'], ['contract', '--contract'], ['chargeBearer', '--charge-bearer'], ['file', '--file'], ['fileType', '--file-type'],
    ['transactions', '--transactions'], ['controlSum', '--control-sum'],
  ];
  for (const [key, flag] of specific) if (flags[key] !== undefined && !allowed.includes(key)) throw new UsageError(`${flag} does not apply to --type ${family}`);
}

function frequencyOf(value: string | undefined): string {
  const f = required('--frequency', value, 'the standing order\'s Frequency, e.g. EvryDay, EvryWorkgDay, IntrvlWkDay:01:03, IntrvlMnthDay:01:15, QtrDay:ENGLISH');
  if (!isFrequency(f)) throw new UsageError(`--frequency ${f}: not of the standard's grammar (e.g. EvryDay, EvryWorkgDay, IntrvlWkDay:01:03, WkInMnthDay:02:03, IntrvlMnthDay:01:-01, QtrDay:ENGLISH)`);
  return f;
}

function exchangeRateOf(flags: PayCreateFlags, currency: string): ExchangeRateRequest | undefined {
  if (flags.rateType === undefined) {
    if (flags.rate !== undefined || flags.contract !== undefined) throw new UsageError('--rate and --contract go with --rate-type Agreed');
    return undefined;
  }
  const type = (['Actual', 'Agreed', 'Indicative'] as const).find((t) => t.toLowerCase() === flags.rateType!.toLowerCase());
  if (!type) throw new UsageError(`--rate-type ${flags.rateType}: expected Actual, Agreed or Indicative`);
  if (type !== 'Agreed' && (flags.rate !== undefined || flags.contract !== undefined)) throw new UsageError(`--rate and --contract go with --rate-type Agreed, not ${type} (the bank gives that rate)`);
  if (type === 'Agreed') {
    const rate = Number(required('--rate', flags.rate, 'the agreed ExchangeRate, e.g. 1.1634'));
    if (!Number.isFinite(rate) || rate <= 0) throw new UsageError(`--rate ${flags.rate}: expected a positive number, e.g. 1.1634`);
    const contract = required('--contract', flags.contract, 'the ContractIdentification of the agreed rate');
    if (contract.length > 256) throw new UsageError('--contract: at most 256 characters');
    return { unitCurrency: currency, rateType: type, exchangeRate: rate, contractIdentification: contract };
  }
  return { unitCurrency: currency, rateType: type };
}

/** The payment file named by --file, with what its consent must declare about it. */
async function paymentFileOf(flags: PayCreateFlags): Promise<PaymentFile> {
  const path = required('--file', flags.file, 'the payment file to upload');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--file ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  const fileType = flags.fileType ?? JSON_PAYMENT_FILE_TYPE;
  try {
    JSON.parse(text);
  } catch {
    // The client sends a file as a JSON body (application/json); other formats it cannot upload yet.
    throw new UsageError(`--file ${path}: not JSON; obtpp uploads JSON payment files (such as ${JSON_PAYMENT_FILE_TYPE})`);
  }
  let count = flags.transactions;
  let sum = flags.controlSum;
  if (fileType === JSON_PAYMENT_FILE_TYPE && (count === undefined || sum === undefined)) {
    // The standard's own JSON file: its payments are counted and summed here.
    let payments: unknown;
    try {
      payments = (JSON.parse(text) as { Data?: { DomesticPayments?: unknown } })?.Data?.DomesticPayments;
    } catch {
      payments = undefined;
    }
    if (!Array.isArray(payments)) throw new UsageError(`--file ${path}: a ${JSON_PAYMENT_FILE_TYPE} file is JSON with Data.DomesticPayments, a list of payments`);
    const amounts = payments.map((p, i) => {
      const a = (p as { InstructedAmount?: { Amount?: unknown } })?.InstructedAmount?.Amount;
      if (typeof a !== 'string' || !/^\d{1,13}(\.\d{1,5})?$/.test(a)) throw new UsageError(`--file ${path}: payment ${i + 1} has no InstructedAmount.Amount of the standard's form`);
      return a;
    });
    count ??= String(payments.length);
    sum ??= String(controlSumOf(amounts));
  }
  if (count === undefined || sum === undefined) throw new UsageError(`--file of type ${fileType}: give --transactions and --control-sum (obtpp counts only ${JSON_PAYMENT_FILE_TYPE} files)`);
  if (!/^\d{1,15}$/.test(count)) throw new UsageError(`--transactions ${count}: expected a whole number`);
  const controlSum = Number(sum);
  if (!Number.isFinite(controlSum) || controlSum < 0) throw new UsageError(`--control-sum ${sum}: expected a number, e.g. 3.75`);
  return { fileType, text, fileHash: fileHashOf(text), numberOfTransactions: count, controlSum };
}

/** The family's consent body, from the flags. */
export async function familyConsent(session: Session, family: PaymentFamily, flags: PayCreateFlags): Promise<{ body: FamilyConsentBody; file?: PaymentFile }> {
  const debtor = await debtorFrom(session, flags);
  const tag = randomUUID().replace(/-/g, '').slice(0, 16);
  const ids = { instructionIdentification: `obtpp-${tag}`, endToEndIdentification: `obtpp-e2e-${tag}` };
  const reference = flags.reference === undefined ? undefined : text35('--reference', flags.reference);
  if (family === 'file') {
    refuseOthers(flags, family, ['file', 'fileType', 'transactions', 'controlSum', 'executionDate']);
    for (const [v, flag] of [[flags.amount, '--amount'], [flags.creditorId, '--creditor-id'], [flags.creditorName, '--creditor-name']] as const) {
      if (v !== undefined) throw new UsageError(`${flag} does not apply to --type file: the file names its payments`);
    }
    const file = await paymentFileOf(flags);
    const when = flags.executionDate === undefined ? undefined : parseWhen('--execution-date', flags.executionDate);
    return {
      body: buildFileConsent({ file, ...(reference ? { fileReference: reference } : {}), ...(when ? { requestedExecutionDateTime: when } : {}), ...(debtor ? { debtor } : {}) }),
      file,
    };
  }
  const currency = parseCurrency('--currency', flags.currency ?? 'GBP');
  const amount = parseAmount('--amount', required('--amount', flags.amount, 'the amount, e.g. 25.00'));
  const creditor = {
    schemeName: flags.creditorScheme ?? SORT_CODE,
    identification: required('--creditor-id', flags.creditorId, 'the payee\'s account identification (a sort code and account number, or an IBAN with --creditor-scheme UK.OBIE.IBAN)'),
    name: text35('--creditor-name', required('--creditor-name', flags.creditorName, 'the payee\'s name')),
  };
  const single = { ...ids, amount, currency, creditor, ...(debtor ? { debtor } : {}), ...(reference ? { reference } : {}) };
  const executionDate = () => parseWhen('--execution-date', required('--execution-date', flags.executionDate, 'RequestedExecutionDateTime: ISO date-time or relative such as +1d'));
  const international = () => {
    const chargeBearer = flags.chargeBearer === undefined ? undefined : CHARGE_BEARERS.find((c) => c.toLowerCase() === flags.chargeBearer!.toLowerCase());
    if (flags.chargeBearer !== undefined && !chargeBearer) throw new UsageError(`--charge-bearer ${flags.chargeBearer}: expected ${CHARGE_BEARERS.join(', ')}`);
    const currencyOfTransfer = parseCurrency('--currency-of-transfer', required('--currency-of-transfer', flags.currencyOfTransfer, 'the currency the creditor receives (CurrencyOfTransfer), e.g. EUR'));
    return { currencyOfTransfer, ...(chargeBearer ? { chargeBearer } : {}) };
  };
  const schedule = () => {
    const first = parseWhen('--first-payment-date', required('--first-payment-date', flags.firstPaymentDate, 'FirstPaymentDateTime: ISO date-time or relative such as +1d'));
    if (flags.payments !== undefined && flags.finalPaymentDate !== undefined) throw new UsageError('--payments and --final-payment-date: a standing order ends one way only');
    if (flags.payments !== undefined && !/^\d{1,35}$/.test(flags.payments)) throw new UsageError(`--payments ${flags.payments}: expected a whole number`);
    return {
      frequency: frequencyOf(flags.frequency), firstPaymentDateTime: first, currency, creditor,
      ...(flags.payments !== undefined ? { numberOfPayments: flags.payments } : {}),
      ...(flags.finalPaymentDate !== undefined ? { finalPaymentDateTime: parseWhen('--final-payment-date', flags.finalPaymentDate) } : {}),
      ...(debtor ? { debtor } : {}), ...(reference ? { reference } : {}),
    };
  };
  switch (family) {
    case 'domestic':
      refuseOthers(flags, family, []);
      // The domestic builder names its remittance otherwise (it also builds v4.0's structured one).
      return { body: buildPaymentConsent({ ...single, ...(reference ? { remittance: { reference } } : {}) }) as unknown as FamilyConsentBody };
    case 'domestic-scheduled':
      refuseOthers(flags, family, ['executionDate']);
      return { body: buildDomesticScheduledConsent({ ...single, requestedExecutionDateTime: executionDate() }) };
    case 'domestic-standing-order':
      refuseOthers(flags, family, ['frequency', 'firstPaymentDate', 'finalPaymentDate', 'payments', 'recurringAmount', 'finalAmount']);
      return {
        body: buildDomesticStandingOrderConsent({
          ...schedule(), firstAmount: amount,
          ...(flags.recurringAmount !== undefined ? { recurringAmount: parseAmount('--recurring-amount', flags.recurringAmount) } : {}),
          ...(flags.finalAmount !== undefined ? { finalAmount: parseAmount('--final-amount', flags.finalAmount) } : {}),
        }),
      };
    case 'international':
      refuseOthers(flags, family, ['currencyOfTransfer', 'rateType', 'rate', 'contract', 'chargeBearer']);
      return { body: buildInternationalConsent({ ...single, ...international(), ...optionalRate(flags, currency) }) };
    case 'international-scheduled':
      refuseOthers(flags, family, ['executionDate', 'currencyOfTransfer', 'rateType', 'rate', 'contract', 'chargeBearer']);
      return { body: buildInternationalScheduledConsent({ ...single, ...international(), ...optionalRate(flags, currency), requestedExecutionDateTime: executionDate() }) };
    case 'international-standing-order':
      refuseOthers(flags, family, ['frequency', 'firstPaymentDate', 'finalPaymentDate', 'payments', 'currencyOfTransfer', 'chargeBearer']);
      return { body: buildInternationalStandingOrderConsent({ ...schedule(), amount, ...international() }) };
  }
}

const optionalRate = (flags: PayCreateFlags, currency: string) => {
  const rate = exchangeRateOf(flags, currency);
  return rate ? { exchangeRate: rate } : {};
};

/** The payment-family consent named, or the current one; one obtpp pay did not make is refused. */
async function familyRecord(session: Session, id: string | undefined): Promise<ConsentRecord & { family: { type: string; orderId?: string } }> {
  const ps = await session.read();
  const chosen = id ?? ps.current.pay;
  if (!chosen) throw new StateError('no_consent', `no current payment-family consent for profile ${session.profile.name}: pass --consent ID or create one with obtpp pay create --type FAMILY`);
  const record = ps.consents[chosen];
  if (!record) throw new StateError('unknown_consent', `unknown consent ${chosen} for profile ${session.profile.name} (see obtpp consent list, or create one with obtpp pay create --type FAMILY)`);
  if (!record.family) throw new UsageError(`consent ${chosen} is not a payment-family consent (a ${record.vrp ? 'VRP' : record.fn} consent); they come from obtpp pay create`);
  return record as ConsentRecord & { family: { type: string; orderId?: string } };
}

const familyOfRecord = (record: { family: { type: string } }) => familyOf(record.family.type);

/** The family's operations, once the bank offers its consent. */
function requireFamily(session: Session, family: PaymentFamily): FamilyOps {
  const ops = opsOf(session, family);
  if (!session.client.supports(ops.create)) throw session.client.unsupported(ops.create);
  return ops;
}

function printConsent(out: Out, family: PaymentFamily, body: unknown): void {
  const d = (body as { Data?: Record<string, any> })?.Data;
  const i = d?.Initiation;
  const amount = i?.InstructedAmount ?? i?.FirstPaymentAmount;
  const rate = d?.ExchangeRateInformation ?? i?.ExchangeRateInformation;
  const rows: Array<[string, string | undefined]> = [
    ['ConsentId', str(d, 'ConsentId')], ['Family', family], ['Status', str(d, 'Status')],
    ['Amount', amount?.Amount !== undefined ? `${amount.Amount} ${amount.Currency ?? ''}` : undefined],
    ['Execution', str(i, 'RequestedExecutionDateTime')], ['Frequency', str(i, 'Frequency')], ['First payment', str(i, 'FirstPaymentDateTime')],
    ['Transfer in', str(i, 'CurrencyOfTransfer')],
    ['Rate', rate?.RateType ? `${rate.RateType}${rate.ExchangeRate !== undefined ? ` ${rate.ExchangeRate}` : ''}${rate.ContractIdentification ? ` (${rate.ContractIdentification})` : ''}` : undefined],
    ['File', str(i, 'FileType') && `${str(i, 'FileType')}: ${str(i, 'NumberOfTransactions')} payment(s), control sum ${String(i?.ControlSum ?? '')}`],
    ['Creditor', str(i, 'CreditorAccount', 'Identification') && `${str(i, 'CreditorAccount', 'Identification')} (${str(i, 'CreditorAccount', 'Name') ?? ''})`],
    ['Debtor', str(i, 'DebtorAccount', 'Identification') ?? str(d, 'Debtor', 'Identification')],
  ];
  for (const [k, v] of rows) if (v !== undefined) out.line(`${out.c.dim(k.padEnd(15))} ${v}`);
}

export async function create(io: Io, flags: PayCreateFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const family = familyOf(flags.type);
    const ops = requireFamily(session, family);
    const { body, file } = await familyConsent(session, family, flags);
    const key = flags.idempotencyKey ?? randomUUID();
    const result = await out.step(`creating the ${family} payment consent`, () => session.invoke(ops.create, [body], [201], { idempotencyKey: key }));
    const id = str(result.body, 'Data', 'ConsentId');
    if (!id) throw new BankError(result.status, `the bank created the ${family} consent but gave no Data.ConsentId`, { exchange: result.exchange });
    let status = str(result.body, 'Data', 'Status') ?? 'unknown';
    const record: ConsentRecord = { id, fn: 'pis', status, createdAt: new Date().toISOString(), family: { type: family } };
    // Remembered before the upload: a file the bank refuses leaves a consent the user can still read.
    await session.update((s) => {
      s.consents[id] = record;
      s.current.pay = id;
      s.last = id;
    });
    if (file) {
      // The bytes go as they are in the file: its FileHash is of those bytes.
      await out.step(`uploading ${flags.file} to ${id}`, () => session.invoke('uploadPaymentFile', [id, JSON.parse(file.text)], [200], { bodyText: file.text }));
      const read = await session.invoke(ops.get, [id], [200]);
      status = str(read.body, 'Data', 'Status') ?? status;
      await session.rememberStatus(id, status);
    }
    if (out.json) return out.document(result.body);
    printConsent(out, family, result.body);
    out.line(`created ${family} consent ${out.c.bold(id)} (${status}); next: obtpp consent authorise, then obtpp pay submit`);
  });
}

export async function submit(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string; idempotencyKey?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const record = await familyRecord(session, consentArg(id, flags));
    const family = familyOfRecord(record);
    const ops = requireFamily(session, family);
    const consent = await out.step(`reading ${family} consent ${record.id}`, () => session.invoke(ops.get, [record.id], [200]));
    const data = (consent.body as { Data?: Record<string, any> } | undefined)?.Data;
    if (!data?.Initiation) throw new BankError(consent.status, `the bank's ${family} consent ${record.id} has no Data.Initiation to pay`, { exchange: consent.exchange });
    const risk = (consent.body as { Risk?: Record<string, unknown> }).Risk;
    const order = buildFamilyOrder(record.id, { Data: { Initiation: data.Initiation }, ...(risk !== undefined ? { Risk: risk } : {}) });
    // One key for both tries: a retry after a refreshed token must not pay twice.
    const key = flags.idempotencyKey ?? randomUUID();
    const result = await out.step(`submitting the ${family} order of ${record.id}`, () => session.invoke(ops.submit, [order], [201], { record, idempotencyKey: key }));
    const orderId = familyOrderIdOf(family, result.body);
    if (!orderId) throw new BankError(result.status, `the bank accepted the ${family} order but gave no Data.${family === 'domestic' ? 'DomesticPaymentId' : 'its order id'}`, { exchange: result.exchange });
    await session.update((s) => {
      const r = s.consents[record.id];
      if (r?.family) r.family.orderId = orderId;
      if (r) r.status = 'Consumed';
    });
    if (out.json) return out.document(result.body);
    out.line(`${family} order ${out.c.bold(orderId)}: ${str(result.body, 'Data', 'Status') ?? 'no status'} (consent ${record.id})`);
    out.line('read it back: obtpp pay get --order');
  });
}

export async function get(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string; order?: boolean; details?: boolean }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const record = await familyRecord(session, consentArg(id, flags));
    const family = familyOfRecord(record);
    const ops = requireFamily(session, family);
    if (flags.order || flags.details) {
      const orderId = record.family.orderId;
      if (!orderId) throw new StateError('no_payment', `no order submitted on ${family} consent ${record.id} in this session: obtpp pay submit first`);
      const op = flags.details ? ops.details : ops.order;
      const result = await out.step(`reading ${family} order ${orderId}${flags.details ? '\'s details' : ''}`, () => session.invoke(op, [orderId], [200]));
      if (out.json) return out.document(result.body);
      if (flags.details) {
        const rows = ((result.body as any)?.Data?.PaymentStatus ?? []) as Array<Record<string, unknown>>;
        for (const r of rows) out.line(`${String(r.PaymentTransactionId ?? '?')}: ${String(r.Status ?? '?')} (${String(r.StatusUpdateDateTime ?? '')})`);
        if (!rows.length) out.line('the bank lists no payment status');
        return;
      }
      return out.line(`${family} order ${orderId}: ${str(result.body, 'Data', 'Status') ?? 'no status'} (consent ${str(result.body, 'Data', 'ConsentId') ?? '?'})`);
    }
    const result = await out.step(`reading ${family} consent ${record.id}`, () => session.invoke(ops.get, [record.id], [200]));
    await session.rememberStatus(record.id, str(result.body, 'Data', 'Status'));
    if (out.json) return out.document(result.body);
    printConsent(out, family, result.body);
  });
}
