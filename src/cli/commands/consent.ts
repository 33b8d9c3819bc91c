/**
 * `obtpp consent …`: the consents (and NextGenPSD2's payments) the session remembers. The flags
 * are parsed and the session opened here; each standard's work is its own (src/cli/<standard>/,
 * through the registry), and the PSU's journey is shared with `flow`.
 */
import type { Io } from '../io.ts';
import type { CommonFlags, Out } from '../output.ts';
import { table } from '../output.ts';
import { consentArg, withSession, when } from './common.ts';
import { kindOf, type AuthoriseOutcome, type ConsentRecord, type InAppRequest, type Session } from '../../session/index.ts';
import { parseList } from '../../session/parse.ts';
import { ObtppError, ExitCode, UsageError } from '../../errors.ts';
import type { AisFlags, AuthoriseFlags, CofFlags, PisFlags } from '../flags.ts';
import { commandsOf } from '../standard-commands.ts';
import { orList, standards } from '../../standards/registry.ts';

export type { AisFlags, AuthoriseFlags, CofFlags, PisFlags } from '../flags.ts';

export async function createAis(io: Io, flags: AisFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => (await commandsOf(session)).consent.createAis(session, out, flags), { command: 'consent create ais' });
}

export async function createCof(io: Io, flags: CofFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => (await commandsOf(session)).consent.createCof!(session, out, flags), { command: 'consent create cof' });
}

export async function createPis(io: Io, flags: PisFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => (await commandsOf(session)).consent.createPis(session, out, flags), { command: 'consent create pis' });
}

/** GET of a consent, in its standard's terms. */
export async function get(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const record = await session.consent(undefined, consentArg(id, flags));
    return (await commandsOf(session)).consent.get(session, out, record);
  }, { command: 'consent get' });
}

export async function del(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const chosen = consentArg(id, flags);
    const commands = await commandsOf(session);
    const record = await session.consent(commands.consent.deletes && chosen === undefined ? commands.consent.deletes : undefined, chosen);
    return commands.consent.delete(session, out, record);
  }, { command: 'consent delete' });
}

export async function forget(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string }): Promise<void> {
  const chosen = consentArg(id, flags);
  if (chosen === undefined) throw new UsageError('consent forget needs the consent: obtpp consent forget ID (see obtpp consent list)');
  await withSession(io, flags, async (session, out) => {
    const record = await session.consent(undefined, chosen);
    await session.update((s) => {
      delete s.consents[record.id];
      delete s.tokens[record.id];
      for (const fn of ['ais', 'cof', 'pis'] as const) if (s.current[fn] === record.id) delete s.current[fn];
      if (s.last === record.id) delete s.last;
    });
    if (out.json) return out.document({ consentId: record.id, fn: record.fn, forgotten: true });
    out.line(`forgot ${kindOf(session.profile.dialect, record.fn)} ${record.id} and its tokens (the bank still has it)`);
  }, { command: 'consent forget' });
}

export async function list(io: Io, flags: CommonFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    // A consent's status may change at the bank (NextGenPSD2: a newer recurring consent expires the
    // former, the PSU revokes one): where the standard says so, each status not yet final is read afresh.
    const refresh = (await commandsOf(session)).consent.refresh;
    const unread = refresh ? await refresh(session) : {};
    const ps = await session.read();
    const now = Date.now();
    const rows = Object.values(ps.consents).sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map((r) => {
      const t = ps.tokens[r.id];
      const token = !t ? 'none' : t.expiresAt === undefined || t.expiresAt > now ? 'valid' : t.refreshToken ? 'expired (refreshable)' : 'expired';
      return { ...r, current: ps.current[r.fn] === r.id, token, ...(t?.expiresAt ? { tokenExpiresAt: new Date(t.expiresAt).toISOString() } : {}), ...(unread[r.id] ? { statusNotRead: unread[r.id] } : {}) };
    });
    if (out.json) return out.document({ profile: session.profile.name, variant: session.variant, state: session.state.path, consents: rows });
    if (rows.length === 0) {
      out.line(`no consents yet for ${session.profile.name} (variant ${session.variant}); create one: obtpp consent create ais`);
      return;
    }
    out.block(table(['', 'CONSENT', 'KIND', 'STATUS', 'CREATED', 'EXPIRES', 'TOKEN', 'WHAT'], rows.map((r) => [
      r.current ? '*' : '', r.id, r.fn, r.statusNotRead ? `${r.status} (as last read)` : r.status, when(r.createdAt), r.expiration ? when(r.expiration) : '—', r.token, summary(r),
    ]), out.c));
    for (const r of rows) if (r.statusNotRead) out.line(out.c.dim(`${r.id}: status not read afresh: ${r.statusNotRead}`));
    out.line(out.c.dim('* the current consent of its kind (used when --consent is not given)'));
  }, { command: 'consent list' });
}

function summary(r: ConsentRecord): string {
  if (r.fn === 'ais' && r.access) return `${accessOf(r.access)}${r.accountIds?.length ? `; accounts ${r.accountIds.join(', ')}` : ''}`;
  if (r.fn === 'ais' && r.sca) return `access not recorded${r.accountIds?.length ? `; accounts ${r.accountIds.join(', ')}` : ''}`;
  if (r.fn === 'ais') return `${r.permissions?.length ?? 0} permissions${r.accountIds?.length ? `; accounts ${r.accountIds.join(', ')}` : ''}`;
  if (r.fn === 'cof') return `debtor ${r.debtor?.Identification ?? '?'}`;
  const to = r.count !== undefined ? `in ${r.count} payment${r.count === 1 ? '' : 's'}` : `to ${r.creditor?.Name ?? r.creditor?.Identification ?? '?'}`;
  return `${r.amount?.Amount ?? '?'} ${r.amount?.Currency ?? ''} ${to}${r.debtor ? ` from ${r.debtor.Identification}` : ''}`;
}

/**
 * What a NextGenPSD2 consent's `access` grants, in its own words: the services (accounts,
 * balances, transactions) with the accounts named, or "the PSU picks" for empty lists (a
 * bank-offered consent), or the global form (allPsd2, availableAccounts…).
 */
export function accessOf(access: Record<string, unknown>): string {
  const global = ['allPsd2', 'availableAccounts', 'availableAccountsWithBalance'].find((k) => access[k] !== undefined);
  if (global) return `${global}: ${String(access[global])}`;
  const services = ['accounts', 'balances', 'transactions'].filter((k) => Array.isArray(access[k]));
  if (!services.length) return 'no access named';
  const named = services.map((k) => access[k] as unknown[]);
  const ids = [...new Set(named.flat().map((a) => (a && typeof a === 'object' ? String((a as Record<string, unknown>).iban ?? (a as Record<string, unknown>).maskedPan ?? (a as Record<string, unknown>).pan ?? '?') : '?')))];
  return `${services.join(', ')}${ids.length ? ` of ${ids.join(', ')}` : ' (the PSU picks the accounts)'}`;
}

/**
 * What the PSU gives obtpp for an SCA that is not the redirect page's: --psu-id, the password and
 * the one-time password from stdin (they win over the profile; read in the order of the flags'
 * help), --timeout of a decoupled SCA. Shared with `basket authorise`.
 */
export async function inAppRequest(out: Out, flags: AuthoriseFlags, log: (line: string) => void): Promise<InAppRequest> {
  let timeoutMs: number | undefined;
  if (flags.timeout !== undefined) {
    const seconds = Number(flags.timeout);
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) throw new UsageError(`--timeout ${flags.timeout}: a number of seconds (above 0, at most 3600)`);
    timeoutMs = seconds * 1000;
  }
  const { stdinLines } = await import('../secret-input.ts');
  const lines = stdinLines(out.io, flags.passwordStdin === true, flags.otpStdin === true);
  const password = flags.passwordStdin ? await lines('password') : undefined;
  const otp = flags.otpStdin ? await lines('one-time password') : undefined;
  return {
    ...(flags.psuId ? { psuId: flags.psuId } : {}),
    ...(password ? { password } : {}),
    ...(otp ? { otp } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    secret: lines,
    log,
  };
}

/** The standards whose SCA approaches are these, as a message names them ("a berlin-group profile's"). */
function ownersOf(approaches: readonly string[]): string {
  return orList(standards().filter((s) => approaches.some((a) => s.scaApproaches?.includes(a as never))).map((s) => s.name));
}

/** The PSU journey for a consent; shared with `flow`. */
export async function authoriseConsent(session: Session, out: Out, record: ConsentRecord, flags: AuthoriseFlags): Promise<AuthoriseOutcome> {
  let callbackPort: number | undefined;
  if (flags.callbackPort !== undefined) {
    callbackPort = Number(flags.callbackPort);
    if (!Number.isInteger(callbackPort) || callbackPort < 0 || callbackPort > 65535) throw new UsageError(`--callback-port ${flags.callbackPort}: not a port number (0–65535)`);
  }
  const manual = flags.manual === true || callbackPort !== undefined || session.profile.psu.driver.kind === 'manual';
  const request = {
    accounts: parseList(flags.accounts), debtor: flags.debtor, reject: flags.reject === true,
    manual: flags.manual === true, callbackPort,
    log: (line: string) => void out.io.stderr.write(line + '\n'),
  };
  const commands = await commandsOf(session);
  const approach = record.sca?.approach;
  const inApp = approach === 'decoupled' || approach === 'embedded';
  // The redirect approach takes a PSU too where the standard names one: the next PSU of a multilevel SCA (a payment reading PATC).
  const named = commands.consent.namesPsu?.(record) ?? false;
  if (!inApp && !named && (flags.psuId !== undefined || flags.passwordStdin)) {
    throw new UsageError(`--psu-id and --password-stdin are for a ${ownersOf(['decoupled', 'embedded'])} profile's SCA by redirect, decoupled or embedded`);
  }
  if (!inApp && (flags.otpStdin || flags.timeout !== undefined)) {
    throw new UsageError(`--otp-stdin and --timeout are for the decoupled and embedded SCA approaches of a ${ownersOf(['decoupled', 'embedded'])} profile`);
  }
  if (named && (flags.psuId !== undefined || flags.passwordStdin)) Object.assign(request, { inApp: await inAppRequest(out, flags, request.log) });
  if (inApp && flags.reject) throw new UsageError(`--reject: in the ${approach} SCA approach the PSU rejects in the banking app (decoupled) or by a wrong one-time password (embedded), not through obtpp`);
  if (inApp) {
    Object.assign(request, { inApp: await inAppRequest(out, flags, request.log) });
    // No spinner over the instructions (decoupled) or a prompt (embedded).
    return commands.consent.authorise(session, record, request);
  }
  const doing = `${flags.reject ? 'rejecting' : 'authorising'} ${kindOf(session.profile.dialect, record.fn)} ${record.id} as the PSU${manual ? '' : ' (headless Chromium)'}`;
  const run = () => commands.consent.authorise(session, record, request);
  // Manual mode prints instructions on stderr: no spinner over them.
  const outcome = manual ? await run() : await out.step(doing, run, (o) => describeOutcome(o, session.profile.dialect));
  return outcome;
}

/** The journey's flags of `flow`. */
export type Journey = Pick<AuthoriseFlags, 'manual' | 'callbackPort'>;

/** The PSU's approval in a flow: anything but authorised stops the flow (exit 1). */
export async function approve(session: Session, out: Out, record: ConsentRecord, flags: AuthoriseFlags): Promise<AuthoriseOutcome & { status: 'authorised' }> {
  const outcome = await authoriseConsent(session, out, record, { ...flags, reject: false });
  if (outcome.status !== 'authorised') {
    throw new ObtppError('not_authorised', `${describeOutcome(outcome, session.profile.dialect)}; the flow stops here`, { exitCode: ExitCode.nonConformant });
  }
  return outcome;
}

export function describeOutcome(o: AuthoriseOutcome, dialect?: string): string {
  const kind = kindOf(dialect, o.fn);
  if (o.status === 'refused') return `the bank refused the authorisation request for ${kind} ${o.consentId}: ${o.error}${o.description ? ` (${o.description})` : ''}; the ${kind} is unchanged`;
  // The PSU approved and the bank said no (a payment RJCT for want of funds): the bank's decision, not the PSU's.
  if (o.status === 'rejected' && o.by === 'bank') return `the bank rejected ${kind} ${o.consentId} after the PSU's SCA: ${o.error}${o.description ? ` (${o.description})` : ''}`;
  if (o.status === 'rejected') return `the PSU rejected ${kind} ${o.consentId}: the bank answered ${o.error}${o.description ? ` (${o.description})` : ''}`;
  const parts = [`authorised ${kind} ${o.consentId}`];
  if (o.accounts.length) parts.push(`accounts ${o.accounts.join(', ')}`);
  if (o.debtor) parts.push(`debtor ${o.debtor}`);
  if (o.expiresAt) parts.push(`token until ${when(o.expiresAt)}`);
  return parts.join('; ');
}

export async function authorise(io: Io, id: string | undefined, flags: AuthoriseFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const record = await session.consent(undefined, consentArg(id, flags));
    const outcome = await authoriseConsent(session, out, record, flags);
    // The rejection asked for: access_denied (OAuth2), or a berlin-group consent read rejected / payment RJCT after the redirect SCA.
    const asked = outcome.status === 'rejected' && (outcome.error === 'access_denied' || (flags.reject === true && ['rejected', 'RJCT'].includes(outcome.error)));
    if (outcome.status !== 'authorised' && !asked) io.exitCode = 1;
    if (out.json) return out.document(outcome);
    out.line(describeOutcome(outcome, session.profile.dialect));
    const status = (await session.read()).consents[record.id]?.status;
    if (outcome.status === 'authorised' && record.fn === 'pis' && status === 'PATC') {
      // Multilevel SCA: the bank awaits another PSU's (it said so: partially accepted).
      const done = flags.psuId ?? session.profile.psu.username;
      const other = session.profile.sca?.multilevel?.psu.username;
      out.line(`payment ${record.id} reads PATC: the bank awaits another PSU's SCA; next: obtpp consent authorise ${record.id} --psu-id ${other && other !== done ? other : 'PSU-ID'}`);
    } else if (outcome.status === 'authorised') out.line(record.vrp ? 'next: obtpp vrp pay --amount AMOUNT (as often as the consent\'s limits allow)' : (await commandsOf(session)).consent.next(record.fn));
  }, { command: 'consent authorise' });
}

