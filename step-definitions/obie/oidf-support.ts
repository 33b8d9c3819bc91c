// What the checks of the OpenID Foundation's FAPI modules (SEC-16 … SEC-24) share: the footing a
// check needs from the bank's security profile (not applicable without it, with the reason), a
// probe of one authorisation request (built by obtpp's own flow, varied as the module says, pushed
// where the profile pushes, and its first answer read without following redirects), and the
// judgement of a refusal against the OAuth errors the module expects.
import type { ConformanceWorld, ConsentRecord } from '../support/world.ts';
import { describeAnswer } from '../support/judge.ts';
import { refusal } from './authorisation-answer.ts';
import { NotApplicableError, type ApiResult } from '../../src/client/operations.ts';
import type { Variant } from '../../src/profile/types.ts';
import type { Auth, BeginOptions, PendingAuthorisation, ResolvedSecurity } from '../../src/auth/index.ts';
import { refusalOf, type TokenAttempt } from '../../src/auth/index.ts';
import { AuthorisationError, HttpError } from '../../src/errors.ts';

/** The bank's security profile gives the module nothing to judge (with the reason). */
export class NoFooting extends NotApplicableError {
  constructor(variant: Variant, why: string) {
    super('createAccountAccessConsent', variant);
    this.message = why;
  }
}

const NAMES: Record<ResolvedSecurity['profile'], string> = {
  'fapi1-advanced': 'FAPI 1.0 Advanced', fapi2: 'FAPI 2.0', 'fapi2-message-signing': 'FAPI 2.0 Message Signing', oauth2: 'no FAPI profile',
};

/** The authorisation server's client, once the bank is known to run a FAPI security profile. */
export async function fapi(world: ConformanceWorld): Promise<Auth> {
  const auth = await world.lane.auth();
  if (auth.security.profile === 'oauth2') {
    throw new NoFooting(world.variant, 'the bank\'s authorisation server runs no FAPI security profile (security oauth2: the authorization code with PKCE), so the OpenID Foundation\'s FAPI modules do not apply to it (docs/oidf.md)');
  }
  return auth;
}

/** Its profile in words, for a reason or a failure. */
export function profileWords(s: ResolvedSecurity): string {
  return `${NAMES[s.profile]} (${s.profile})`;
}

export function fapi2(s: ResolvedSecurity): boolean {
  return s.profile === 'fapi2' || s.profile === 'fapi2-message-signing';
}

/** Not applicable unless `holds`, with the reason. */
export function need(world: ConformanceWorld, holds: boolean, why: string): void {
  if (!holds) throw new NoFooting(world.variant, why);
}

/** The profile's second client, for the checks that need another client; not judged without one. */
export async function secondClient(world: ConformanceWorld): Promise<Auth> {
  const second = world.lane.secondAuth();
  if (!second) throw world.blocked(undefined, 'the profile names no second client of the TPP (auth.secondClient), and this check needs another client: it is not judged');
  if (world.ctx.profile.auth.secondClient!.clientAuth.method === 'tls_client_auth') {
    throw world.blocked(undefined, 'the second client authenticates with a TLS certificate (tls_client_auth), and obtpp sends one certificate, the first client\'s: the check is not judged');
  }
  return second;
}

/** What each scenario's probe found, for its Then step. */
export const probes = new WeakMap<ConformanceWorld, { probe: Probe; what: string }>();

/** What an endpoint answered a scenario's request: the token endpoint's attempt, or a probe of the pushed-request endpoint. */
export const results = new WeakMap<ConformanceWorld, { attempt?: TokenAttempt; probe?: Probe; what: string }>();

/** A step text's alternatives as a regular expression group (each escaped). */
export function oneOf(texts: Iterable<string>): string {
  return `(${[...texts].map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`;
}

/** What came of one authorisation request: refused (where, status, the OAuth error if it named one), or gone on. */
export interface Probe {
  refused?: { where: string; status: number; error?: string; description?: string; location?: string };
  /** Where the bank went on to (its login page), when it did not refuse. */
  wentOn?: string;
  pending?: PendingAuthorisation;
  answer?: ApiResult & { url?: string };
}

/**
 * Builds the authorisation request for the consent (pushed where the profile or the options push:
 * a refusal at the pushed-request endpoint is the probe's answer) and sends the PSU's first GET of
 * it, redirects not followed.
 */
export async function probe(world: ConformanceWorld, record: ConsentRecord, options: BeginOptions = {}, as?: Auth): Promise<Probe> {
  const auth = as ?? await world.lane.auth();
  let pending: PendingAuthorisation;
  try {
    pending = await auth.begin(record.id, record.fn, options);
  } catch (error) {
    const refused = pushRefusal(error);
    if (refused) return { refused };
    if (error instanceof HttpError) throw world.violation(`the pushed authorization request: the bank gave no usable answer: ${error.message}`);
    throw error;
  }
  return { ...(await open(world, pending.url)), pending };
}

/** The PSU's first GET of an authorization URL, redirects not followed, kept as the world's last answer; no usable answer is the rule's violation. */
export async function firstGet(world: ConformanceWorld, url: string): Promise<ApiResult & { url: string }> {
  let r: ApiResult & { url: string };
  try {
    r = { ...(await world.lane.http.request('GET', url, { headers: { accept: 'text/html' } })), url, operation: 'createAccountAccessConsent' } as ApiResult & { url: string };
  } catch (error) {
    if (error instanceof HttpError) throw world.violation(`the authorization endpoint gave no usable answer: ${error.message}`);
    throw error;
  }
  world.last = r;
  return r;
}

/** The PSU's first GET of an authorization URL, redirects not followed: refused, or gone on. */
export async function open(world: ConformanceWorld, url: string): Promise<Probe> {
  const r = await firstGet(world, url);
  const refused = refusal(world, r);
  const location = typeof r.headers.location === 'string' ? r.headers.location : undefined;
  if (refused) {
    const error = refused.startsWith('error=') ? refused.slice('error='.length) : undefined;
    return { refused: { where: 'the authorization endpoint', status: r.status, ...(error ? { error } : {}), ...(location ? { location } : {}) }, answer: r };
  }
  return { wentOn: location ? `${r.status} to ${new URL(location, url).origin}${new URL(location, url).pathname}` : describeAnswer(r), answer: r };
}

/** The pushed-request endpoint's refusal inside an error of `begin()`, when it was one. */
export function pushRefusal(error: unknown): Probe['refused'] | undefined {
  if (!(error instanceof AuthorisationError)) return undefined;
  for (let e: unknown = error.cause, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const r = refusalOf(e);
    if (r) return { where: 'the pushed-request endpoint', status: r.status, ...(r.error ? { error: r.error } : {}), ...(r.description ? { description: r.description } : {}) };
  }
  return undefined;
}

/** The OAuth errors a module expects, from a cell such as `invalid_request or invalid_request_object`. */
export function errorsOf(text: string): string[] {
  return text.split(/,\s*|\s+or\s+/).map((s) => s.trim()).filter((s) => /^[a-z_]+$/.test(s));
}

/** A refusal in words: where, the status, the error. */
export function refusalWords(r: NonNullable<Probe['refused']>): string {
  return `${r.where} refused it (${r.status}${r.error ? `, ${r.error}` : ', no OAuth error: an error page'})`;
}

/**
 * The probe was refused, with one of the errors the module expects: an error page (a 4xx without an
 * OAuth error) is the module's "error shown to the user" and passes; an OAuth error must be one it
 * names. Anything else is the rule's violation.
 */
export function judgeRefused(world: ConformanceWorld, p: Probe, expected: string[], what: string): void {
  if (!p.refused) throw world.violation(`the bank must refuse ${what}, but it went on: ${p.wentOn ?? 'no answer'}`);
  if (p.refused.error && !expected.includes(p.refused.error)) {
    throw world.violation(`the bank refused ${what}, but with ${p.refused.error}${p.refused.description ? ` (${JSON.stringify(p.refused.description)})` : ''}; the module expects ${expected.join(' or ')} (${p.refused.where})`);
  }
  world.attach(`${world.ruleId}: ${what}: ${refusalWords(p.refused)}`, 'text/plain');
}

/** A token endpoint's answer judged a refusal with one of the expected errors. */
export function judgeTokenRefused(world: ConformanceWorld, a: TokenAttempt, expected: string[], what: string): void {
  if (a.granted) throw world.violation(`the token endpoint must refuse ${what}, but it granted a token (token_type ${a.tokens.tokenType})`);
  if (a.status < 400 || a.status >= 500) throw world.violation(`the token endpoint must refuse ${what} with a 4xx, but answered ${a.status}`);
  if (!expected.includes(a.error)) {
    throw world.violation(`the token endpoint refused ${what} with ${a.status} ${a.error ? a.error : '(no OAuth error body)'}${a.description ? ` (${JSON.stringify(a.description)})` : ''}; the module expects ${expected.join(' or ')}`);
  }
  world.attach(`${world.ruleId}: ${what}: refused ${a.status} ${a.error}`, 'text/plain');
}

/** A fresh random value of `n` URL-safe characters (a long nonce or state). */
export function randomText(n: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const bytes = crypto.getRandomValues(new Uint8Array(n));
  return [...bytes].map((b) => alphabet[b % 64]).join('');
}
