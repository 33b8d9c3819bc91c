import type { Io } from '../io.ts';
import type { CommonFlags, Out } from '../output.ts';
import { first, str, table } from '../output.ts';
import { withSession } from './common.ts';
import type { Session, ConsentRecord, AccountSummary } from '../../session/index.ts';
import type { ApiResult } from '../../client/operations.ts';
import { accountsOf, balancesOf, transactionsOf } from '../../dialects/obie/builders.ts';
import { balancesOf as bgBalancesOf, transactionsOf as bgTransactionsOf, type BookingStatus } from '../../dialects/berlin-group/builders.ts';
import { parseWhen } from '../../session/parse.ts';
import { UsageError } from '../../errors.ts';

export interface DataFlags extends CommonFlags { consent?: string }
export interface AccountsFlags extends DataFlags { cards?: boolean }
export interface TransactionsFlags extends DataFlags { from?: string; to?: string; bookingStatus?: string }

/** The speakers of both dialects. */
const BOTH = { dialects: ['obie', 'berlin-group'] } as const;
const bg = () => import('../../session/berlin-group.ts');

/** The AIS consent to read through (--consent, else the current one). */
function aisConsentOf(session: Session, flags: DataFlags): Promise<ConsentRecord> {
  return session.consent('ais', flags.consent);
}

/** GET /accounts (or one account); remembers the accounts (and identifications) behind the consent. */
export async function readAccounts(session: Session, record: ConsentRecord, token: string, accountId?: string): Promise<ApiResult> {
  const result = session.check(accountId ? await session.client.getAccount(accountId, { token }) : await session.client.listAccounts({ token }), [200]);
  const seen: AccountSummary[] = accountsOf(result.body).filter((a) => typeof a.AccountId === 'string').map((a) => {
    const id = first(a, 'Account');
    const s: AccountSummary = { AccountId: a.AccountId as string };
    for (const [k, v] of [['Currency', str(a, 'Currency')], ['Nickname', str(a, 'Nickname')], ['SchemeName', str(id, 'SchemeName')], ['Identification', str(id, 'Identification')], ['Name', str(id, 'Name')]] as const) {
      if (v !== undefined) s[k] = v;
    }
    return s;
  });
  if (seen.length) await session.rememberAccounts(record.id, seen);
  return result;
}

export function printAccounts(out: Out, body: unknown): void {
  const rows = accountsOf(body).map((a) => {
    const id = first(a, 'Account');
    return [str(a, 'AccountId'), str(a, 'Nickname') ?? str(id, 'Name') ?? str(a, 'Description'), str(a, 'Currency'), str(a, 'AccountSubType'), str(a, 'AccountType'), str(id, 'Identification')];
  });
  if (rows.length === 0) return out.line('no accounts');
  out.block(table(['ACCOUNT', 'NAME', 'CCY', 'SUBTYPE', 'TYPE', 'IDENTIFICATION'], rows, out.c));
}

export function printBalances(out: Out, body: unknown): void {
  const rows = balancesOf(body).map((b) => [str(b, 'Type'), signed(str(b, 'Amount', 'Amount'), str(b, 'CreditDebitIndicator')), str(b, 'Amount', 'Currency'), cd(str(b, 'CreditDebitIndicator')), str(b, 'DateTime')]);
  if (rows.length === 0) return out.line('no balances');
  out.block(table(['TYPE', 'AMOUNT', 'CCY', 'C/D', 'DATETIME'], rows, out.c));
}

export function printTransactions(out: Out, body: unknown, limit = Infinity): void {
  const all = transactionsOf(body);
  const rows = all.slice(0, limit).map((t) => [
    str(t, 'BookingDateTime')?.slice(0, 10), cd(str(t, 'CreditDebitIndicator')),
    `${signed(str(t, 'Amount', 'Amount'), str(t, 'CreditDebitIndicator'))} ${str(t, 'Amount', 'Currency') ?? ''}`.trim(),
    str(t, 'Status'), str(t, 'TransactionId'), str(t, 'TransactionInformation') ?? str(t, 'TransactionReference') ?? '',
  ]);
  if (rows.length === 0) return out.line('no transactions');
  out.block(table(['BOOKED', 'C/D', 'AMOUNT', 'STATUS', 'ID', 'INFORMATION'], rows, out.c));
  if (all.length > rows.length) out.line(out.c.dim(`… ${all.length - rows.length} more (obtpp transactions ACCOUNT --json for all)`));
}

const cd = (v: string | undefined) => (v === 'Credit' ? 'C' : v === 'Debit' ? 'D' : v ?? '');
const signed = (amount: string | undefined, indicator: string | undefined) => (amount === undefined ? '' : indicator === 'Debit' ? `-${amount}` : amount);

export async function accounts(io: Io, accountId: string | undefined, flags: AccountsFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    if (flags.cards && session.profile.dialect !== 'berlin-group') throw new UsageError('--cards reads NextGenPSD2 card accounts (GET /v1/card-accounts): a UK profile has none');
    const record = await aisConsentOf(session, flags);
    if (session.profile.dialect === 'berlin-group' && flags.cards) {
      const { readBgCardAccounts } = await bg();
      const result = await out.step(accountId ? `reading card account ${accountId}` : 'reading the card accounts', () => readBgCardAccounts(session, record, accountId));
      if (out.json) return out.document(result.body);
      return printBgCardAccounts(out, accountId ? [((result.body as { cardAccount?: unknown })?.cardAccount ?? {}) as Record<string, unknown>] : bgListOf(result.body, 'cardAccounts'));
    }
    if (session.profile.dialect === 'berlin-group') {
      const { readBgAccounts } = await import('../../session/berlin-group.ts');
      const result = await out.step(accountId ? `reading account ${accountId}` : 'reading the accounts', () => readBgAccounts(session, record, accountId));
      if (out.json) return out.document(result.body);
      return printBgAccounts(out, accountId ? [((result.body as { account?: unknown })?.account ?? {}) as Record<string, unknown>] : bgAccountsOf(result.body));
    }
    const result = await out.step(accountId ? `reading account ${accountId}` : 'reading the accounts', () => session.withUserToken(record, (token) => readAccounts(session, record, token, accountId)));
    if (out.json) return out.document(result.body);
    printAccounts(out, result.body);
  }, BOTH);
}

/** NextGenPSD2 `accounts[]` (tolerant: any shape). */
export function bgAccountsOf(body: unknown): Record<string, unknown>[] {
  const list = (body as { accounts?: unknown })?.accounts;
  return Array.isArray(list) ? list.filter((a): a is Record<string, unknown> => typeof a === 'object' && a !== null) : [];
}

/** A NextGenPSD2 list member (tolerant: any shape). */
function bgListOf(body: unknown, key: string): Record<string, unknown>[] {
  const list = (body as Record<string, unknown> | undefined)?.[key];
  return Array.isArray(list) ? list.filter((a): a is Record<string, unknown> => typeof a === 'object' && a !== null) : [];
}

/** Card accounts: named by their masked PAN, never a full card number. */
export function printBgCardAccounts(out: Out, list: Record<string, unknown>[]): void {
  const s = (a: Record<string, unknown>, k: string) => (typeof a[k] === 'string' ? (a[k] as string) : undefined);
  const rows = list.map((a) => [s(a, 'resourceId'), s(a, 'name') ?? s(a, 'displayName') ?? s(a, 'ownerName'), s(a, 'currency'), s(a, 'product'), s(a, 'maskedPan')]);
  if (rows.length === 0) return out.line('no card accounts (a consent reaches card accounts by maskedPan or a global form: obtpp consent create ais --access all-psd2)');
  out.block(table(['CARD ACCOUNT', 'NAME', 'CCY', 'PRODUCT', 'MASKED PAN'], rows, out.c));
}

export function printBgAccounts(out: Out, list: Record<string, unknown>[]): void {
  const s = (a: Record<string, unknown>, k: string) => (typeof a[k] === 'string' ? (a[k] as string) : undefined);
  const rows = list.map((a) => [s(a, 'resourceId'), s(a, 'name') ?? s(a, 'displayName') ?? s(a, 'ownerName'), s(a, 'currency'), s(a, 'cashAccountType'), s(a, 'iban') ?? s(a, 'bban')]);
  if (rows.length === 0) return out.line('no accounts');
  out.block(table(['ACCOUNT', 'NAME', 'CCY', 'TYPE', 'IBAN'], rows, out.c));
}

export async function balances(io: Io, accountId: string, flags: DataFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const record = await aisConsentOf(session, flags);
    if (session.profile.dialect === 'berlin-group') {
      const { readBgBalances } = await bg();
      const result = await out.step(`reading the balances of ${accountId}`, () => readBgBalances(session, record, accountId));
      if (out.json) return out.document(result.body);
      return printBgBalances(out, result.body);
    }
    const result = await out.step(`reading the balances of ${accountId}`, () => session.withUserToken(record, async (token) => session.check(await session.client.getBalances(accountId, { token }), [200])));
    if (out.json) return out.document(result.body);
    printBalances(out, result.body);
  }, BOTH);
}

export async function transactions(io: Io, accountId: string, flags: TransactionsFlags): Promise<void> {
  const bookingStatus = flags.bookingStatus === undefined ? undefined : parseBookingStatus(flags.bookingStatus);
  const query = {
    fromBookingDateTime: flags.from === undefined ? undefined : parseWhen('--from', flags.from),
    toBookingDateTime: flags.to === undefined ? undefined : parseWhen('--to', flags.to),
  };
  await withSession(io, flags, async (session, out) => {
    if (bookingStatus !== undefined && session.profile.dialect !== 'berlin-group') {
      throw new UsageError('--booking-status is a berlin-group query parameter: a UK bank lists booked and pending transactions together (their Status tells them apart)');
    }
    const record = await aisConsentOf(session, flags);
    if (session.profile.dialect === 'berlin-group') {
      const { readBgTransactions } = await bg();
      // dateFrom: the standard lets a bank demand it (no delta reports); the UK flags' dates, as ISODates.
      const q = { bookingStatus: bookingStatus ?? 'booked', dateFrom: (query.fromBookingDateTime ?? parseWhen('--from', '-90d')).slice(0, 10), ...(query.toBookingDateTime ? { dateTo: query.toBookingDateTime.slice(0, 10) } : {}) };
      const result = await out.step(`reading the ${q.bookingStatus} transactions of ${accountId} from ${q.dateFrom}`, () => readBgTransactions(session, record, accountId, q),
        (r) => `the ${q.bookingStatus} transactions of ${accountId} from ${q.dateFrom}${r.pages > 1 ? `, ${r.pages} pages (_links.next)` : ''}`);
      if (out.json) return out.document(result.body);
      return printBgTransactions(out, result.body);
    }
    const result = await out.step(`reading the transactions of ${accountId}`, () => session.withUserToken(record, async (token) => session.check(await session.client.getTransactions(accountId, { token, query }), [200])));
    if (out.json) return out.document(result.body);
    printTransactions(out, result.body);
  }, BOTH);
}

/** --booking-status: what GET …/transactions?bookingStatus= accepts (`information` is for standing orders, not read here). */
function parseBookingStatus(value: string): BookingStatus {
  const allowed = ['booked', 'pending', 'both', 'all'] as const;
  const v = value.trim().toLowerCase();
  if (!(allowed as readonly string[]).includes(v)) throw new UsageError(`--booking-status ${value}: expected one of ${allowed.join(', ')}`);
  return v as BookingStatus;
}

export async function transaction(io: Io, accountId: string, resourceId: string, flags: DataFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const record = await aisConsentOf(session, flags);
    const bgDialect = session.profile.dialect === 'berlin-group';
    const result = await out.step(`reading transaction ${resourceId}`, async () => bgDialect
      ? (await bg()).readBgTransaction(session, record, accountId, resourceId)
      : session.withUserToken(record, async (token) => session.check(await session.client.getTransaction(accountId, resourceId, { token }), [200])));
    if (out.json) return out.document(result.body);
    const details = (result.body as { transactionsDetails?: { transactionDetails?: unknown } } | undefined)?.transactionsDetails;
    // 1.3.12 wraps the details once more (transactionsDetails.transactionDetails); earlier files do not.
    const t = bgDialect ? asObject((details as { transactionDetails?: unknown } | undefined)?.transactionDetails ?? details) : transactionsOf(result.body)[0];
    if (!t) return out.line('no transaction in the answer');
    for (const [k, v] of Object.entries(t)) out.line(`${out.c.dim(k.padEnd(22))} ${typeof v === 'string' ? v : JSON.stringify(v)}`);
  }, BOTH);
}

const asObject = (v: unknown) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/** NextGenPSD2 `balances[]`: type, amount (signed, as the bank gives it), currency, reference date. */
export function printBgBalances(out: Out, body: unknown): void {
  const rows = bgBalancesOf(body).map((b) => [str(b, 'balanceType'), str(b, 'balanceAmount', 'amount'), str(b, 'balanceAmount', 'currency'), str(b, 'referenceDate') ?? str(b, 'lastChangeDateTime')]);
  if (rows.length === 0) return out.line('no balances');
  out.block(table(['TYPE', 'AMOUNT', 'CCY', 'DATE'], rows, out.c));
}

/** NextGenPSD2 `transactions.booked[]` and `pending[]`: debits carry negative amounts. */
export function printBgTransactions(out: Out, body: unknown, limit = Infinity): void {
  const all = (['booked', 'pending'] as const).flatMap((which) => bgTransactionsOf(body, which).map((t) => ({ which, t })));
  // The bank's own labels: the list it put the transaction in, and a booking date only where it gave one.
  const rows = all.slice(0, limit).map(({ which, t }) => [
    str(t, 'bookingDate') ?? '—', which,
    `${str(t, 'transactionAmount', 'amount') ?? ''} ${str(t, 'transactionAmount', 'currency') ?? ''}`.trim(),
    str(t, 'transactionId'), str(t, 'creditorName') ?? str(t, 'debtorName') ?? '', str(t, 'remittanceInformationUnstructured') ?? '',
  ]);
  if (rows.length === 0) return out.line('no transactions');
  out.block(table(['BOOKED', 'STATUS', 'AMOUNT', 'ID', 'COUNTERPARTY', 'INFORMATION'], rows, out.c));
  if (all.length > rows.length) out.line(out.c.dim(`… ${all.length - rows.length} more (obtpp transactions ACCOUNT --json for all)`));
}
