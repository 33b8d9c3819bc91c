/**
 * The one walk of NextGenPSD2's decoupled and embedded SCA, for the terminal client
 * (berlin-group-sca.ts) and the conformance steps (step-definitions/berlin-group/support.ts)
 * alike: where an authorisation begins, its explicit start, the embedded approach's PSU data
 * (password, SCA method, one-time password) and the decoupled approach's polls of the scaStatus.
 *
 * What differs between the two front doors is given, not written twice: how a call is sent (the
 * authorisation client, `AuthorisationOps`, which the steps wrap to keep their evidence), what an
 * answer must be (`answered`: the terminal checks it, the steps judge it), what is seen
 * (`sighted`: every scaStatus, with what the TPP had done by then), the PSU's secrets, the PSU of a
 * decoupled SCA (a person told to approve, or a page the steps watch) and the poll's pace.
 */
import type { ApiResult, CallOptions } from '../client/operations.ts';
import { authorisationIdOf, bgHeaders, linksOf, scaStatusOf } from '../dialects/berlin-group/builders.ts';
import type { AuthorisationOps } from './berlin-group-authorisations.ts';

/** The approaches whose SCA goes through the authorisation sub-resource (the others through a page). */
export type InAppApproach = 'decoupled' | 'embedded';

/**
 * Where an authorisation begins: the TPP starts it (POST …/authorisations; with the PSU's password
 * where the link asks for it), or the bank started it and the walk goes on with its id.
 * `awaitsPsuData`: the answer just received asks for the PSU's data (updatePsu… link), so the
 * embedded walk sends the password without reading the scaStatus first; a link kept from an
 * earlier answer may be stale, and is read first.
 */
export type ScaBeginning =
  | { readonly start: true; readonly withPassword: boolean }
  | { readonly start?: false; readonly authorisationId: string; readonly awaitsPsuData: boolean };

/** The start links, in the order the walk prefers them (the one that carries the password first). */
const START_LINKS = [
  'startAuthorisationWithPsuAuthentication', 'startAuthorisation', 'startAuthorisationWithPsuIdentification', 'startAuthorisationWithEncryptedPsuAuthentication',
  'startAuthorisationWithAuthenticationMethodSelection', 'startAuthorisationWithTransactionAuthorisation',
] as const;

/** The authorisation id a link names (…/authorisations/{id}, …/cancellation-authorisations/{id}; else its last segment). */
export function authorisationOfLink(href: string | undefined): string | undefined {
  if (!href) return undefined;
  const m = /authorisations\/([^/?#]+)\/?(?:[?#].*)?$/.exec(href);
  if (m) return decodeURIComponent(m[1]!);
  const last = href.split(/[?#]/)[0]!.split('/').filter(Boolean).at(-1);
  return last ? decodeURIComponent(last) : undefined;
}

/** The link an answer gives the walk: a start link (the one carrying the password first), else an updatePsu… link, else scaStatus. */
function walkLink(body: unknown, base?: string): { name: string; href: string } | undefined {
  const links = linksOf(body, base);
  const name = START_LINKS.find((n) => links[n]) ?? (['updatePsuAuthentication', 'updatePsuIdentification', 'scaStatus'] as const).find((n) => links[n]);
  return name ? { name, href: links[name]! } : undefined;
}

/**
 * Where the SCA goes on, from an answer that created a resource (or started an authorisation): an
 * explicit start where it offers a start link, else the authorisation its updatePsu… or scaStatus
 * link names; undefined when it has neither.
 */
export function beginningOf(body: unknown, base?: string): ScaBeginning | undefined {
  const link = walkLink(body, base);
  if (!link) return undefined;
  if (link.name.startsWith('startAuthorisation')) return { start: true, withPassword: link.name === 'startAuthorisationWithPsuAuthentication' };
  const id = authorisationOfLink(link.href);
  return id ? { authorisationId: id, awaitsPsuData: link.name.startsWith('updatePsu') } : undefined;
}

/** The link to start an authorisation (the bank leaves the start to the TPP), if the answer has one. */
export function startLinkOf(body: unknown, base: string): string | undefined {
  const links = linksOf(body, base);
  const start = START_LINKS.find((name) => links[name]);
  return start ? links[start] : undefined;
}

/**
 * The link an answer gives for the walk, as the terminal keeps it between commands (beginningOf's
 * choice): its href, whether the TPP starts the authorisation, and whether with the PSU's password.
 */
export function beginningLinkOf(body: unknown, base: string): { href: string; start?: true; withPassword?: true } | undefined {
  const link = walkLink(body, base);
  if (!link) return undefined;
  if (!link.name.startsWith('startAuthorisation')) return { href: link.href };
  return { href: link.href, start: true, ...(link.name === 'startAuthorisationWithPsuAuthentication' ? { withPassword: true as const } : {}) };
}

/** One call of the walk, as the hooks see it. */
export interface ScaCall {
  /** start: POST …/authorisations; update: PUT …/{authorisationId}; read: GET …/{authorisationId}. */
  readonly kind: 'start' | 'update' | 'read';
  /** What was sent (a start's or an update's body). */
  readonly body?: unknown;
  /** The statuses the standard answers it with. */
  readonly expected: readonly number[];
  /** What the TPP had done by the answer: `after the password`, `polling while the PSU approves` … */
  readonly when: string;
}

/** One scaStatus the walk saw. */
export interface ScaSeen {
  readonly status: string | undefined;
  readonly when: string;
  /**
   * Whether the TPP had sent the second factor (embedded: the one-time password) or the PSU had
   * decided (decoupled) by then; undefined while the PSU is at it (the TPP cannot know).
   */
  readonly factorsDone: boolean | undefined;
  /** start: the start's answer; step: an answer to the PSU's data (or a read before them); poll: a read of the decoupled SCA. */
  readonly kind: 'start' | 'step' | 'poll';
}

/** Why the walk cannot go on: the front door says it in its own terms (the error it throws). */
export type ScaStop = 'no-authorisation-id' | 'no-sca-method';

/** The PSU of a decoupled SCA whom the TPP can watch (the steps: the bank's app page in the browser). */
export interface WatchedPsu {
  /** Whether the PSU is done (decided, or gave up). */
  done(): boolean;
  /** Settles once the PSU is done. */
  readonly decided: Promise<unknown>;
}

/** How often a decoupled SCA's scaStatus is read: the first pause, how each next grows, the longest. */
export interface PollPace {
  readonly firstMs: number;
  readonly factor: number;
  readonly maxMs: number;
}

export interface ScaWalk {
  readonly approach: InAppApproach;
  /** The authorisation sub-resource of what is authorised (berlin-group-authorisations.ts). */
  readonly ops: AuthorisationOps;
  readonly beginning: ScaBeginning;
  /** PSU-ID on every call; PSU-IP-Address where given. */
  readonly psu: { readonly id: string; readonly ipAddress?: string };
  /** The PSU's secrets, asked for when the walk needs them (the one-time password: a wrong one is the PSU's rejection). */
  readonly secrets: { password(): Promise<string>; otp(): Promise<string> };
  /** The SCA method the profile prefers (sca.authenticationMethodId). */
  readonly method?: string;
  readonly decoupled: {
    /** Gives up after this long (from the first read of the scaStatus). */
    readonly timeoutMs: number;
    readonly pace: PollPace;
    /** Tells the PSU to approve (the terminal prints it), before the first read of the scaStatus. */
    instruct?(authorisationId: string): void;
    /**
     * A PSU the TPP watches (the steps: the bank's app page in the browser), set going once the
     * first scaStatus is read: each of their steps calls `acted` (the next read comes soon after).
     * Without one, the first final scaStatus ends the walk.
     */
    watch?(authorisationId: string, acted: () => void): Promise<WatchedPsu>;
  };
  readonly hooks: {
    /** The authorisation the walk follows, once known, and whether the TPP started it. */
    begun?(authorisationId: string, explicit: boolean): void;
    /** Each answer, before the walk goes on: the front door checks or judges it (throwing stops the walk). */
    answered(call: ScaCall, r: ApiResult): void | Promise<void>;
    /** Each scaStatus the walk saw, in order. */
    sighted?(seen: ScaSeen): void | Promise<void>;
    /** The error that stops the walk, in the front door's terms. */
    stop(why: ScaStop, r: ApiResult): Error;
  };
}

export interface ScaWalked {
  readonly authorisationId: string;
  readonly explicit: boolean;
  /** Whether a final scaStatus (finalised, failed, exempted) was seen. */
  readonly final: boolean;
  /** The first final scaStatus seen, else the last one read. */
  readonly scaStatus: string | undefined;
  /** The last answer of the walk. */
  readonly last?: ApiResult;
}

const FINAL_SCA_STATUSES: ReadonlySet<string> = new Set(['finalised', 'failed', 'exempted']);

/** The state of one walk: the authorisation, the last answer, the statuses seen. */
interface Walking {
  readonly w: ScaWalk;
  id: string;
  explicit: boolean;
  last?: ApiResult;
  status?: string;
  finalStatus?: string;
}

/**
 * Walks a decoupled or embedded SCA as far as the bank and the PSU take it: started (or taken up
 * where the bank started it), then the embedded approach's PSU data, or the decoupled approach's
 * polls until the scaStatus is final and the PSU is done (or the time is up). The caller reads
 * the resource's status after, and says what a walk that did not end final means.
 */
export async function walkSca(w: ScaWalk): Promise<ScaWalked> {
  const s: Walking = { w, id: '', explicit: false };
  if (w.beginning.start) await start(s, w.beginning.withPassword && w.approach === 'embedded');
  else s.id = w.beginning.authorisationId;
  w.hooks.begun?.(s.id, s.explicit);
  await (w.approach === 'embedded' ? embedded(s) : decoupled(s));
  return { authorisationId: s.id, explicit: s.explicit, final: s.finalStatus !== undefined, scaStatus: s.finalStatus ?? s.status, ...(s.last ? { last: s.last } : {}) };
}

const options = (w: ScaWalk): CallOptions => ({
  token: null, interactionId: false, idempotencyKey: false,
  headers: { ...bgHeaders(), 'PSU-ID': w.psu.id, ...(w.psu.ipAddress !== undefined ? { 'PSU-IP-Address': w.psu.ipAddress } : {}) },
});

/** One call: sent, answered (checked or judged by the front door), its scaStatus seen. */
async function call(s: Walking, c: ScaCall, seen: Omit<ScaSeen, 'status' | 'when'>): Promise<string | undefined> {
  const { w } = s;
  const r = c.kind === 'start' ? await w.ops.start(c.body, options(w))
    : c.kind === 'update' ? await w.ops.update(s.id, c.body, options(w))
      : await w.ops.read(s.id, options(w));
  await w.hooks.answered(c, r);
  s.last = r;
  if (c.kind === 'start') {
    const id = authorisationIdOf(r.body) ?? authorisationOfLink(linksOf(r.body, r.exchange.url).scaStatus);
    if (!id) throw w.hooks.stop('no-authorisation-id', r);
    s.id = id;
    s.explicit = true;
  }
  // A 401 to the one-time password: the PSU's code was wrong, and the SCA failed.
  const status = c.kind === 'update' && r.status === 401 ? 'failed' : scaStatusOf(r.body);
  s.status = status;
  if (status !== undefined && FINAL_SCA_STATUSES.has(status)) s.finalStatus ??= status;
  await w.hooks.sighted?.({ status, when: c.when, ...seen });
  return status;
}

/** POST …/authorisations: the explicit start (embedded: with the PSU's password where the link asks for it). */
async function start(s: Walking, withPassword: boolean): Promise<void> {
  const body = withPassword ? { psuData: { password: await s.w.secrets.password() } } : {};
  await call(s, { kind: 'start', body, expected: [201], when: withPassword ? 'after the password (explicit start)' : 'at the explicit start' }, { factorsDone: false, kind: 'start' });
}

/**
 * The embedded SCA: the PSU's password (psuData), the SCA method where the bank asks for one (the
 * profile's when the bank offers it or lists none, else the first offered) and the one-time
 * password (scaAuthenticationData), each by PUT, each as far as the scaStatus says.
 */
async function embedded(s: Walking): Promise<void> {
  const { w } = s;
  const update = (body: unknown, when: string, factorsDone: boolean, expected: number[] = [200]) => call(s, { kind: 'update', body, expected, when }, { factorsDone, kind: 'step' });
  let status = s.status;
  const fresh = w.beginning.start === true || w.beginning.awaitsPsuData;
  if (!fresh) {
    status = await call(s, { kind: 'read', expected: [200], when: 'before the PSU\'s data' }, { factorsDone: false, kind: 'step' });
  }
  if (status === undefined || status === 'received' || status === 'psuIdentified') status = await update({ psuData: { password: await w.secrets.password() } }, 'after the password', false);
  if (status === 'psuAuthenticated') {
    const offered = ((s.last?.body as { scaMethods?: unknown } | undefined)?.scaMethods);
    const ids = (Array.isArray(offered) ? offered : []).map((m) => (m as { authenticationMethodId?: unknown } | null)?.authenticationMethodId).filter((m): m is string => typeof m === 'string');
    const method = w.method && (ids.length === 0 || ids.includes(w.method)) ? w.method : ids[0];
    if (!method) throw w.hooks.stop('no-sca-method', s.last!);
    status = await update({ authenticationMethodId: method }, 'after choosing the SCA method', false);
  }
  if (status === 'scaMethodSelected') await update({ scaAuthenticationData: await w.secrets.otp() }, 'after the one-time password', true, [200, 401]);
}

/**
 * The decoupled SCA: the PSU told, the scaStatus read before the PSU acts, then read again after
 * pauses that start short and grow (NextGenPSD2 gives the scaStatus no Retry-After; the PSU
 * approves whenever they do) and, where the TPP watches the PSU, soon after each thing the PSU
 * did. Once final is final: the walk ends at the first final status the PSU is done by (what the
 * bank says after that is for the caller to judge); the last read is at the deadline.
 */
async function decoupled(s: Walking): Promise<void> {
  const { w } = s;
  const d = w.decoupled;
  const read = (when: string, factorsDone: boolean | undefined) => call(s, { kind: 'read', expected: [200], when }, { factorsDone, kind: 'poll' });
  d.instruct?.(s.id);
  await read('before the PSU acted', false);
  let acted = false;
  let wake: (() => void) | undefined;
  const psu = await d.watch?.(s.id, () => {
    acted = true;
    wake?.();
  });
  if (!psu && s.finalStatus !== undefined) return;
  const deadline = Date.now() + d.timeoutMs;
  // A PSU the TPP cannot watch is done as far as the poll can know.
  const psuDone = () => psu?.done() ?? true;
  let doneAtRead = !psu;
  let pause = d.pace.firstMs;
  for (;;) {
    // Nothing happened since the last read: wait the pause (or until the PSU does something).
    if (!acted && !(psuDone() && !doneAtRead)) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((r) => (timer = setTimeout(r, Math.max(0, Math.min(pause, deadline - Date.now()))))),
        ...(psu && !psu.done() ? [psu.decided, new Promise<void>((r) => (wake = r))] : []),
      ]);
      wake = undefined;
      clearTimeout(timer);
    }
    // The PSU did something (or decided) since the last read: the next pause is short again.
    pause = acted || psuDone() !== doneAtRead ? d.pace.firstMs : Math.min(pause * d.pace.factor, d.pace.maxMs);
    doneAtRead = psuDone();
    acted = false;
    const watched = psu !== undefined;
    await read(watched && doneAtRead ? 'after the PSU decided' : 'polling while the PSU approves', watched && doneAtRead ? true : undefined);
    if (s.finalStatus !== undefined && doneAtRead) return;
    if (Date.now() >= deadline) return;
  }
}
