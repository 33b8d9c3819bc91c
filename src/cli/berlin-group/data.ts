/** NextGenPSD2 account information at the terminal: accounts and card accounts, balances, transactions (every page), one transaction. */
import type { Out } from '../output.ts';
import { str, table } from '../output.ts';
import type { AccountsFlags, DataFlags, TransactionsFlags } from '../flags.ts';
import type { Session } from '../../session/index.ts';
import { balancesOf as bgBalancesOf, transactionsOf as bgTransactionsOf, type BookingStatus } from '../../dialects/berlin-group/builders.ts';
import { parseWhen } from '../../session/parse.ts';

const bg = () => import('../../session/berlin-group.ts');

export async function accounts(session: Session, out: Out, accountId: string | undefined, flags: AccountsFlags): Promise<void> {
  const record = await session.consent('ais', flags.consent);
  if (flags.cards) {
    const { readBgCardAccounts } = await bg();
    const result = await out.step(accountId ? `reading card account ${accountId}` : 'reading the card accounts', () => readBgCardAccounts(session, record, accountId));
    if (out.json) return out.document(result.body);
    return printBgCardAccounts(out, accountId ? [((result.body as { cardAccount?: unknown })?.cardAccount ?? {}) as Record<string, unknown>] : bgListOf(result.body, 'cardAccounts'));
  }
  const { readBgAccounts } = await bg();
  const result = await out.step(accountId ? `reading account ${accountId}` : 'reading the accounts', () => readBgAccounts(session, record, accountId));
  if (out.json) return out.document(result.body);
  return printBgAccounts(out, accountId ? [((result.body as { account?: unknown })?.account ?? {}) as Record<string, unknown>] : bgAccountsOf(result.body));
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

export async function balances(session: Session, out: Out, accountId: string, flags: DataFlags): Promise<void> {
  const record = await session.consent('ais', flags.consent);
  const { readBgBalances } = await bg();
  const result = await out.step(`reading the balances of ${accountId}`, () => readBgBalances(session, record, accountId));
  if (out.json) return out.document(result.body);
  return printBgBalances(out, result.body);
}

export async function transactions(session: Session, out: Out, accountId: string, flags: TransactionsFlags, query: { fromBookingDateTime?: string; toBookingDateTime?: string }, bookingStatus?: string): Promise<void> {
  const record = await session.consent('ais', flags.consent);
  const { readBgTransactions } = await bg();
  // dateFrom: the standard lets a bank demand it (no delta reports); the UK flags' dates, as ISODates.
  const q = { bookingStatus: (bookingStatus ?? 'booked') as BookingStatus, dateFrom: (query.fromBookingDateTime ?? parseWhen('--from', '-90d')).slice(0, 10), ...(query.toBookingDateTime ? { dateTo: query.toBookingDateTime.slice(0, 10) } : {}) };
  const result = await out.step(`reading the ${q.bookingStatus} transactions of ${accountId} from ${q.dateFrom}`, () => readBgTransactions(session, record, accountId, q),
    (r) => `the ${q.bookingStatus} transactions of ${accountId} from ${q.dateFrom}${r.pages > 1 ? `, ${r.pages} pages (_links.next)` : ''}`);
  if (out.json) return out.document(result.body);
  return printBgTransactions(out, result.body);
}

export async function transaction(session: Session, out: Out, accountId: string, resourceId: string, flags: DataFlags): Promise<void> {
  const record = await session.consent('ais', flags.consent);
  const result = await out.step(`reading transaction ${resourceId}`, async () => (await bg()).readBgTransaction(session, record, accountId, resourceId));
  if (out.json) return out.document(result.body);
  const details = (result.body as { transactionsDetails?: { transactionDetails?: unknown } } | undefined)?.transactionsDetails;
  // 1.3.12 wraps the details once more (transactionsDetails.transactionDetails); earlier files do not.
  const t = asObject((details as { transactionDetails?: unknown } | undefined)?.transactionDetails ?? details);
  if (!t) return out.line('no transaction in the answer');
  for (const [k, v] of Object.entries(t)) out.line(`${out.c.dim(k.padEnd(22))} ${typeof v === 'string' ? v : JSON.stringify(v)}`);
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
