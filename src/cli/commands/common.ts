/** What every session command does around its work: open the session with the output's hooks, close it after. */
import type { Io } from '../io.ts';
import { makeOut, type CommonFlags, type Out } from '../output.ts';
import { Session } from '../../session/index.ts';
import { UsageError } from '../../errors.ts';

export async function withSession<T>(io: Io, flags: CommonFlags, work: (session: Session, out: Out) => Promise<T>, options: { progress?: boolean; command?: string } = {}): Promise<T> {
  const out = await makeOut(io, flags, options);
  const session = await Session.open({
    profile: flags.profile,
    variant: flags.variant,
    state: flags.state,
    env: io.env,
    cwd: io.cwd,
    onExchange: out.onExchange,
    warn: (message) => void io.stderr.write(message + '\n'),
    ...(options.command ? { command: options.command } : {}),
    ...(io.browser ? { browser: io.browser } : {}),
  });
  // Everything printed, and every error, passes through the session's redactor: it knows the
  // profile's secrets and every token and secret learned from the bank since.
  out.redact = (text) => session.http.redactor.text(text);
  try {
    await session.read(); // teaches the redactor the tokens and secrets the session holds
    return await work(session, out);
  } catch (error) {
    throw session.http.redactor.error(error);
  } finally {
    await session.close();
  }
}

/** `10:04:31` today, else the date and time, in UTC. */
export function when(ms: number | string | undefined): string {
  if (ms === undefined) return '—';
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return String(ms);
  const iso = d.toISOString();
  return iso.slice(0, 10) === new Date().toISOString().slice(0, 10) ? `${iso.slice(11, 19)} UTC` : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

/** The consent named by the argument or by `--consent ID` (either; both only when they agree). */
export function consentArg(id: string | undefined, flags: { consent?: string }): string | undefined {
  if (id !== undefined && flags.consent !== undefined && id !== flags.consent) {
    throw new UsageError(`two different consents given: ${id} and --consent ${flags.consent}`);
  }
  return id ?? flags.consent;
}
