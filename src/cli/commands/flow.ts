/** Whole journeys in one command, printing each step as it happens (stderr) and a summary (stdout): each standard's own (src/cli/<standard>/flow.ts). */
import type { Io } from '../io.ts';
import { withSession } from './common.ts';
import type { AisFlags, CofFlags, PisFlags } from '../flags.ts';
import type { Journey } from './consent.ts';
import { commandsOf } from '../standard-commands.ts';

export async function ais(io: Io, flags: AisFlags & Journey & { accounts?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => (await commandsOf(session)).flow.ais(session, out, flags), { progress: true, command: 'flow ais' });
}

export async function cof(io: Io, flags: CofFlags & Journey & { amount?: string; currency?: string; reference?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => (await commandsOf(session)).flow.cof(session, out, flags), { progress: true, command: 'flow cof' });
}

export async function pis(io: Io, flags: PisFlags & Journey & { debtor?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => (await commandsOf(session)).flow.pis(session, out, flags), { progress: true, command: 'flow pis' });
}
