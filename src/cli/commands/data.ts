/**
 * `obtpp accounts|balances|transactions|transaction`: the flags parsed, the session opened, and
 * the reading and printing done by the profile's standard (src/cli/<standard>/data.ts).
 */
import type { Io } from '../io.ts';
import { withSession } from './common.ts';
import { parseWhen } from '../../session/parse.ts';
import { UsageError } from '../../errors.ts';
import type { AccountsFlags, DataFlags, TransactionsFlags } from '../flags.ts';
import { commandsOf } from '../standard-commands.ts';

export type { AccountsFlags, DataFlags, TransactionsFlags } from '../flags.ts';

export async function accounts(io: Io, accountId: string | undefined, flags: AccountsFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => (await commandsOf(session)).data.accounts(session, out, accountId, flags), { command: 'accounts' });
}

export async function balances(io: Io, accountId: string, flags: DataFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => (await commandsOf(session)).data.balances(session, out, accountId, flags), { command: 'balances' });
}

export async function transactions(io: Io, accountId: string, flags: TransactionsFlags): Promise<void> {
  const bookingStatus = flags.bookingStatus === undefined ? undefined : parseBookingStatus(flags.bookingStatus);
  const query = {
    fromBookingDateTime: flags.from === undefined ? undefined : parseWhen('--from', flags.from),
    toBookingDateTime: flags.to === undefined ? undefined : parseWhen('--to', flags.to),
  };
  await withSession(io, flags, async (session, out) => (await commandsOf(session)).data.transactions(session, out, accountId, flags, query, bookingStatus), { command: 'transactions' });
}

/** --booking-status: what GET …/transactions?bookingStatus= accepts (`information` is for standing orders, not read here). */
function parseBookingStatus(value: string): string {
  const allowed = ['booked', 'pending', 'both', 'all'] as const;
  const v = value.trim().toLowerCase();
  if (!(allowed as readonly string[]).includes(v)) throw new UsageError(`--booking-status ${value}: expected one of ${allowed.join(', ')}`);
  return v;
}

export async function transaction(io: Io, accountId: string, resourceId: string, flags: DataFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => (await commandsOf(session)).data.transaction(session, out, accountId, resourceId, flags), { command: 'transaction' });
}
