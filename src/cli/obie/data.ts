/** The UK account information at the terminal: accounts, balances, transactions, each printed as a table. */
import type { Out } from '../output.ts';
import { first, str, table } from '../output.ts';
import type { AccountsFlags, DataFlags, TransactionsFlags } from '../flags.ts';
import type { AccountSummary, ConsentRecord, Session } from '../../session/index.ts';
import type { ApiResult } from '../../client/operations.ts';
import { accountsOf, balancesOf, transactionsOf } from '../../dialects/obie/builders.ts';
import { UsageError } from '../../errors.ts';

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

export async function accounts(session: Session, out: Out, accountId: string | undefined, flags: AccountsFlags): Promise<void> {
  if (flags.cards) throw new UsageError('--cards reads NextGenPSD2 card accounts (GET /v1/card-accounts): a UK profile has none');
  const record = await session.consent('ais', flags.consent);
  const result = await out.step(accountId ? `reading account ${accountId}` : 'reading the accounts', () => session.withUserToken(record, (token) => readAccounts(session, record, token, accountId)));
  if (out.json) return out.document(result.body);
  printAccounts(out, result.body);
}

export async function balances(session: Session, out: Out, accountId: string, flags: DataFlags): Promise<void> {
  const record = await session.consent('ais', flags.consent);
  const result = await out.step(`reading the balances of ${accountId}`, () => session.withUserToken(record, async (token) => session.check(await session.client.getBalances(accountId, { token }), [200])));
  if (out.json) return out.document(result.body);
  printBalances(out, result.body);
}

export async function transactions(session: Session, out: Out, accountId: string, flags: TransactionsFlags, query: { fromBookingDateTime?: string; toBookingDateTime?: string }, bookingStatus?: string): Promise<void> {
  if (bookingStatus !== undefined) {
    throw new UsageError('--booking-status is a berlin-group query parameter: a UK bank lists booked and pending transactions together (their Status tells them apart)');
  }
  const record = await session.consent('ais', flags.consent);
  const result = await out.step(`reading the transactions of ${accountId}`, () => session.withUserToken(record, async (token) => session.check(await session.client.getTransactions(accountId, { token, query }), [200])));
  if (out.json) return out.document(result.body);
  printTransactions(out, result.body);
}

export async function transaction(session: Session, out: Out, accountId: string, resourceId: string, flags: DataFlags): Promise<void> {
  const record = await session.consent('ais', flags.consent);
  const result = await out.step(`reading transaction ${resourceId}`, () => session.withUserToken(record, async (token) => session.check(await session.client.getTransaction(accountId, resourceId, { token }), [200])));
  if (out.json) return out.document(result.body);
  const t = transactionsOf(result.body)[0];
  if (!t) return out.line('no transaction in the answer');
  for (const [k, v] of Object.entries(t)) out.line(`${out.c.dim(k.padEnd(22))} ${typeof v === 'string' ? v : JSON.stringify(v)}`);
}
