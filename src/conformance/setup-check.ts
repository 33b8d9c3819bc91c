/**
 * A set-up error is not the bank's failure. When the authorisation cannot start because of the
 * profile or the client's registration (a redirect URI the bank does not know, a client it refuses,
 * a scope it does not have, a wrong PSU password, a page step whose selector never matches on the
 * first journey), no rule of the bank can be judged: the run stops with exit 3 and one line that
 * names the profile field to fix. A bank that answers 500, or breaks a rule after a good start,
 * is still judged (those are verdicts).
 */
import { AuthorisationError, ExitCode, ObtppError } from '../errors.ts';
import type { Fn, Profile } from '../profile/types.ts';
import type { Auth } from '../auth/index.ts';
import { refusedField } from '../auth/security.ts';
import type { HttpClient } from '../client/http.ts';

/** What the bank answered the authorization request sent without a browser. */
type Answer = Awaited<ReturnType<HttpClient['request']>>;

/** The profile or the registration keeps the authorisation from starting: exit 3, naming the field. */
export class SetupError extends ObtppError {
  /** The profile field to fix, e.g. `auth.redirectUri`. */
  readonly field: string;
  constructor(field: string, message: string, cause?: unknown) {
    super('setup_error', `set-up error, nothing was judged: ${field}: ${message}`, {
      exitCode: ExitCode.cannotRun,
      cause,
      hint: `fix ${field} in the profile (or the client's registration at the bank), then run again`,
    });
    this.field = field;
  }
}

const CLIENT_FIELD = 'auth.clientId / auth.clientAuth';
/** A bank's words for refusing the redirect URI itself (not a page that merely prints the parameter). */
const REDIRECT_REFUSED = /redirect_uri[^.\n]{0,80}\b(did not match|does not match|mismatch|not registered|not allowed|invalid|unknown)|\b(invalid|unknown|unregistered|mismatched)\b[^.\n]{0,40}redirect_uri/i;

/**
 * The set-up error an authorisation failure is, when it is one (undefined: the bank's doing, a
 * verdict). `fn`: the API whose consent was being authorised (its scope is `auth.scopes.<fn>`).
 */
export function setupProblemOf(error: unknown, profile: Profile, fn: Fn): SetupError | undefined {
  if (!(error instanceof AuthorisationError)) return undefined;
  const code = error.oauthError;
  const text = `${error.message} ${error.evidence?.description ?? ''}`;
  if (code === 'invalid_redirect_uri' || REDIRECT_REFUSED.test(text)) {
    return new SetupError('auth.redirectUri', `the bank does not accept the redirect URI ${profile.auth.redirectUri} for client ${profile.auth.clientId}: ${error.message}`, error);
  }
  if (code === 'invalid_client' || code === 'unauthorized_client') {
    return new SetupError(CLIENT_FIELD, `the bank refused the client ${profile.auth.clientId} (${code}): ${error.message}`, error);
  }
  if (code === 'invalid_scope') {
    return new SetupError(`auth.scopes.${fn}`, `the bank does not know the scope "${profile.auth.scopes[fn]}" (invalid_scope): ${error.message}`, error);
  }
  // The bank's authorisation server refuses the flow the profile asked (FACTS-security; docs/security.md).
  const field = refusedField(code, text);
  if (field) {
    return new SetupError(field, `the bank's authorisation server refused obtpp's own flow (${code}): ${error.message}; set ${field} to what the bank runs`, error);
  }
  if (code === 'login_failed') {
    return new SetupError('psu.username / psu.password', `the bank's sign-in page refused the PSU's credentials: ${error.message}`, error);
  }
  const driver = profile.psu.driver;
  const step = /^step (\d+) \(([^)]*)\): (.*)$/s.exec(error.message);
  if (code === 'step_timeout' && step && driver.kind === 'steps' && !/did not finish loading/.test(step[3]!)) {
    const n = Number(step[1]);
    if (n >= 1 && n <= driver.steps.length) {
      return new SetupError(`psu.driver.steps[${n - 1}]`, `step ${n} (${step[2]}) never matched on the first PSU journey: ${step[3]}${error.evidence?.url ? ` (page ${error.evidence.url})` : ''}`, error);
    }
  }
  return undefined;
}

/**
 * The checks that need no browser, before any scenario: a client-credentials token for the first
 * API the profile offers (invalid_client, invalid_scope), then an authorization request for a
 * consent made for the purpose, sent without a browser (pushed, where the bank offers PAR): a
 * redirect URI, client or scope the bank refuses is a set-up error. Anything else (a 500, a
 * refusal of the consent) is left for the scenarios to judge.
 */
export async function checkSetup(profile: Profile, auth: Auth, http: HttpClient, createConsent: (token: string) => Promise<string | undefined>): Promise<void> {
  const fn: Fn = 'ais';
  const token = await checkClientCredentials(profile, auth, fn);
  if (token === undefined) return;
  let intentId: string | undefined;
  try {
    intentId = await createConsent(token);
  } catch {
    return;
  }
  if (!intentId) return;
  let url: string;
  try {
    url = (await auth.begin(intentId, fn)).url;
  } catch (error) {
    const problem = setupProblemOf(error, profile, fn);
    if (problem) throw problem;
    return;
  }
  let answer: Answer;
  try {
    answer = await http.request('GET', url, { headers: { accept: 'text/html' } });
  } catch {
    return;
  }
  const location = answer.headers.location;
  if (answer.status >= 300 && answer.status < 400 && typeof location === 'string') return checkRedirectBack(profile, fn, url, location);
  if (answer.status >= 400 && answer.status < 500) checkErrorPage(profile, fn, answer);
}

/**
 * A client-credentials token for the API: a set-up error when the bank refuses the client or a
 * scope (or grants it only with a DPoP proof the profile did not ask for), or grants fewer scopes
 * than asked. Undefined when it failed otherwise: the scenarios judge that.
 */
async function checkClientCredentials(profile: Profile, auth: Auth, fn: Fn): Promise<string | undefined> {
  try {
    const tokens = await auth.clientCredentials(fn);
    // A bank that drops a scope it does not know grants the token without it (RFC 6749 §5.1: the
    // answer names the scope granted when it differs): the profile asked for a scope the bank lacks.
    const asked = profile.auth.scopes[fn].split(/\s+/).filter(Boolean);
    if (tokens.scope !== undefined) {
      const granted = new Set(tokens.scope.split(/\s+/).filter(Boolean));
      const missing = asked.filter((s) => !granted.has(s));
      if (missing.length) {
        throw new SetupError(`auth.scopes.${fn}`, `the bank does not grant the scope "${missing.join(' ')}" (it granted ${tokens.scope ? `"${tokens.scope}"` : 'no scope'} to a client-credentials request for "${asked.join(' ')}")`);
      }
    }
    return tokens.accessToken;
  } catch (error) {
    if (error instanceof SetupError) throw error;
    const problem = setupProblemOf(error, profile, fn);
    if (problem) throw problem;
    // A bank that binds its tokens by DPoP refuses a request without a proof, in words of its own: asked again with one.
    if (error instanceof AuthorisationError && auth.security.senderConstraint !== 'dpop' && await auth.grantsWithDpop(fn)) {
      throw new SetupError('security.senderConstraint', `the bank's token endpoint refused obtpp's request without a DPoP proof (${error.oauthError}: ${error.message}) and granted the same request with one: its tokens are DPoP-bound; set security.senderConstraint: dpop`, error);
    }
    return undefined;
  }
}

/** An error sent back to the redirect URI: the authorization request itself was refused. */
function checkRedirectBack(profile: Profile, fn: Fn, url: string, location: string): void {
  let back: URL | undefined;
  try {
    back = new URL(location, url);
  } catch {
    back = undefined;
  }
  // The error where the response mode puts it: the query, or the fragment (the hybrid flow).
  const answer = back && (back.searchParams.get('error') ? back.searchParams : new URLSearchParams(back.hash.slice(1)));
  const error = answer?.get('error');
  if (back && answer && error && location.startsWith(profile.auth.redirectUri)) {
    const problem = setupProblemOf(new AuthorisationError(error, `the authorization request was answered with error=${error}${answer.get('error_description') ? `: ${answer.get('error_description')}` : ''}`), profile, fn);
    if (problem) throw problem;
  }
}

/** The bank's own error page: it names the parameter it refused. */
function checkErrorPage(profile: Profile, fn: Fn, answer: Answer): void {
  const page = answer.text.replace(/<(style|script|head)\b[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  const code = /\b(invalid_redirect_uri|invalid_client|unauthorized_client|invalid_scope|unsupported_response_type|unsupported_response_mode|invalid_request_object|invalid_request)\b/.exec(page)?.[1]
    ?? (REDIRECT_REFUSED.test(page) ? 'invalid_redirect_uri' : undefined);
  if (code) {
    const problem = setupProblemOf(new AuthorisationError(code, `the authorization request was answered ${answer.status}: ${page.slice(0, 300)}`), profile, fn);
    if (problem) throw problem;
  }
}
