/**
 * `obtpp payment get|status|submit|cancel`: the session opened, and the work done by the
 * profile's standard (src/cli/<standard>/payment.ts).
 */
import type { Io } from '../io.ts';
import type { CommonFlags } from '../output.ts';
import { withSession } from './common.ts';
import { commandsOf } from '../standard-commands.ts';

export async function get(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => (await commandsOf(session)).payment.get(session, out, id, flags), { command: 'payment get' });
}

export async function status(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string; xml?: boolean }): Promise<void> {
  await withSession(io, flags, async (session, out) => (await commandsOf(session)).payment.status(session, out, id, flags), { command: 'payment status' });
}

export async function submit(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string; idempotencyKey?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => (await commandsOf(session)).payment.submit(session, out, id, flags), { command: 'payment submit' });
}

export async function cancel(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => (await commandsOf(session)).payment.cancel!(session, out, id, flags), { command: 'payment cancel' });
}
