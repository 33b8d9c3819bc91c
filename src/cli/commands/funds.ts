/** `obtpp funds confirm`: the session opened, and the confirmation asked in the profile's standard's terms (src/cli/<standard>/funds.ts). */
import type { Io } from '../io.ts';
import { withSession } from './common.ts';
import type { ConfirmFlags } from '../flags.ts';
import { commandsOf } from '../standard-commands.ts';

export type { ConfirmFlags } from '../flags.ts';

export async function confirm(io: Io, flags: ConfirmFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => (await commandsOf(session)).funds.confirm(session, out, flags), { command: 'funds confirm' });
}
