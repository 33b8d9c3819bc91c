/** The UK consents at the terminal: their bodies from the flags, their create, read and delete, and what comes next. */
import { randomUUID } from 'node:crypto';
import type { Out } from '../output.ts';
import type { AisFlags, CofFlags, PisFlags } from '../flags.ts';
import { FN_NAMES, type ConsentRecord, type Session } from '../../session/index.ts';
import { createConsent } from '../../session/obie.ts';
import { parseAmount, parseCurrency, parsePermissions, parseWhen, required, text35 } from '../../session/parse.ts';
import { buildAccountAccessConsent, buildFundsConsent, buildPaymentConsent, statusOf, type AccountRef } from '../../dialects/obie/builders.ts';
import { versionOf } from '../../dialects/obie/versions.ts';
import { UsageError } from '../../errors.ts';
import type { Fn } from '../../profile/types.ts';

export const DEFAULT_PERMISSIONS = 'ReadAccountsDetail,ReadBalances,ReadTransactionsDetail,ReadTransactionsCredits,ReadTransactionsDebits';
const SORT_CODE = 'UK.OBIE.SortCodeAccountNumber';

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

const given = (pairs: ReadonlyArray<readonly [string, unknown]>) => pairs.filter(([, v]) => v !== undefined).map(([f]) => f);

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
    version: versionOf(session.profile.standard),
  });
  return { body, summary: { amount: { Amount: amount, Currency: currency }, creditor: wire(creditor), ...(debtor ? { debtor: wire(debtor) } : {}) } };
}

function created(out: Out, record: ConsentRecord): void {
  out.line(`created ${FN_NAMES[record.fn]} ${out.c.bold(record.id)} (${record.status}); next: obtpp consent authorise`);
}

export async function createAis(session: Session, out: Out, flags: AisFlags): Promise<void> {
  const { body, summary } = aisConsent(flags);
  const { result, record } = await out.step('creating the account-access consent', () => createConsent(session, 'ais', body, summary));
  if (out.json) return out.document(result.body);
  created(out, record);
}

export async function createCof(session: Session, out: Out, flags: CofFlags): Promise<void> {
  const { body, summary } = await cofConsent(session, flags);
  const { result, record } = await out.step('creating the funds-confirmation consent', () => createConsent(session, 'cof', body, summary));
  if (out.json) return out.document(result.body);
  created(out, record);
}

export async function createPis(session: Session, out: Out, flags: PisFlags): Promise<void> {
  const { body, summary } = await pisConsent(session, flags);
  const { result, record } = await out.step('creating the payment-order consent', () => createConsent(session, 'pis', body, summary, flags.idempotencyKey));
  if (out.json) return out.document(result.body);
  created(out, record);
  out.line(`PaymentId ${record.id}: obtpp payment get ${record.id} once authorised`);
}

/**
 * GET of a consent: account-access consents (UK, both variants), funds-confirmation consents
 * (variant A) and payment-order consents (the payment).
 */
export async function get(session: Session, out: Out, record: ConsentRecord): Promise<void> {
  const c = session.client;
  const result = session.check(
    await session.withClientToken(record.fn, (token) =>
      record.fn === 'ais' ? c.getAccountAccessConsent(record.id, { token }) : record.fn === 'cof' ? c.getFundsConsent(record.id, { token }) : c.getPayment(record.id, { token })),
    [200],
  );
  await session.rememberStatus(record.id, statusOf(result.body));
  if (out.json) return out.document(result.body);
  printConsentBody(out, record, result.body);
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

export async function del(session: Session, out: Out, record: ConsentRecord): Promise<void> {
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
}

export function next(fn: Fn): string {
  if (fn === 'ais') return 'next: obtpp accounts';
  if (fn === 'cof') return 'next: obtpp funds confirm --amount 10.00 --currency GBP';
  return 'next: obtpp payment get';
}
