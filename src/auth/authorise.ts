import { AuthorisationError } from '../errors.ts';
import type { AccountChoice, Fn, Profile } from '../profile/types.ts';
import { parseAccountChoice } from '../profile/load.ts';
import type { PsuBrowser, JourneyResult } from '../psu/index.ts';
import type { AuthorisationServer, BeginOptions, PendingAuthorisation, TokenSet } from './types.ts';
import { quoteOutside } from '../outside-text.ts';

export interface AuthoriseContext {
  auth: AuthorisationServer;
  browser: PsuBrowser;
  profile: Profile;
  /** Where manual mode prints the URL (stderr in the CLI). */
  log?: (line: string) => void;
}

export interface AuthoriseOptions {
  /**
   * Accounts to tick: a choice by position or names, or its written form as a list (`['all']`,
   * `['first']`, `['first:2']`, or names: AccountIds, identifications, account names); default the
   * profile's psu.accounts, else all offered.
   */
  accounts?: AccountChoice | string[];
  /** Debtor to choose when the bank offers the choice; default the first. */
  debtor?: string;
  /** The PSU rejects instead of approving. */
  reject?: boolean;
  /** Where failure screenshots go (the report's evidence folder); none are taken without it. */
  evidenceDir?: string;
  /** Called with each PSU step as it starts. */
  onStep?: (description: string) => void;
  /** How the authorization request departs from obtpp's own (the conformance suite's PKCE check). */
  request?: BeginOptions;
  /** An authorization request already built (begun), to walk the PSU through instead of a new one. */
  pending?: PendingAuthorisation;
}

/**
 * What came of one PSU journey. On approval it is `authorised` (an OAuth error from the bank is
 * thrown instead). On reject it is `denied` with the bank's error code — conformance judges
 * whether that was access_denied — or `code-after-reject` when the bank issued a code anyway
 * (exchanged, so the caller can show what those tokens can do).
 */
export type AuthoriseResult =
  | { outcome: 'authorised'; tokens: TokenSet; journey: JourneyResult; pending: PendingAuthorisation }
  | { outcome: 'denied'; error: string; description?: string; journey: JourneyResult; pending: PendingAuthorisation }
  | { outcome: 'code-after-reject'; tokens: TokenSet; journey: JourneyResult; pending: PendingAuthorisation };

/** An AuthorisationError thrown after the journey came back carries it (and the request sent). */
export type WithJourney = AuthorisationError & { journey?: JourneyResult; pending?: PendingAuthorisation };

/**
 * The whole authorisation of one consent in one call: build the authorization request (intent id
 * bound as the profile says), walk the PSU through the bank's pages, catch the redirect back,
 * check state, exchange the code (PKCE, nonce, id_token checks).
 *
 * Throws AuthorisationError: `state_mismatch`; the bank's OAuth error on approval
 * (`access_denied` reads "the PSU rejected the consent"); `login_failed` with the page's message;
 * `step_timeout` / `step_failed` at step N with a screenshot; `journey_timeout`; a token-endpoint
 * error with the bank's code. HttpError for transport failures.
 */
export async function authorise(
  ctx: AuthoriseContext,
  consent: { intentId: string; fn: Fn },
  options: AuthoriseOptions = {},
): Promise<AuthoriseResult> {
  const { auth } = ctx;
  const { pending, journey } = await walk(ctx, consent, options);

  // The answer where the request's security profile puts it: the query, the fragment (the hybrid
  // flow: an access_denied there is the PSU's rejection too), or a JARM response (read once verified).
  const { params } = auth.readResponse ? auth.readResponse(journey.callbackUrl, pending.security) : { params: new URL(journey.callbackUrl).searchParams };
  const error = params.get('error');
  // The state is checked before anything in the answer is believed (finish checks it again).
  if (params.get('state') === pending.state && error && options.reject) {
    const description = params.get('error_description') ?? undefined;
    return { outcome: 'denied', error, description, journey, pending };
  }
  try {
    const tokens = await auth.finish(pending, journey.callbackUrl);
    return options.reject ? { outcome: 'code-after-reject', tokens, journey, pending } : { outcome: 'authorised', tokens, journey, pending };
  } catch (e) {
    // A JARM answer's error is known only once verified (finish): a rejection all the same.
    if (options.reject && e instanceof AuthorisationError && (e as { inResponse?: boolean }).inResponse && params.has('response')) {
      return { outcome: 'denied', error: e.oauthError, journey, pending };
    }
    let thrown = e;
    if (e instanceof AuthorisationError && e.oauthError === 'access_denied' && (error === 'access_denied' || params.has('response'))) {
      thrown = new AuthorisationError('access_denied', `the PSU rejected the consent (access_denied)${describeError(params)}`, { cause: e });
    }
    if (thrown instanceof AuthorisationError) Object.assign(thrown, { journey, pending });
    throw thrown;
  }
}

/**
 * The authorization request and the PSU's journey, up to the redirect back, caught and not yet
 * used: what {@link authorise} checks and exchanges, and what the conformance checks that use the
 * code in their own way (a second time, by another client, without its verifier …) start from.
 */
export async function walk(ctx: AuthoriseContext, consent: { intentId: string; fn: Fn }, options: AuthoriseOptions = {}): Promise<{ pending: PendingAuthorisation; journey: JourneyResult }> {
  const { auth, browser, profile } = ctx;
  const pending = options.pending ?? await auth.begin(consent.intentId, consent.fn, options.request);
  const journey = await browser.journey(pending.url, {
    redirectUri: pending.redirectUri,
    driver: profile.psu.driver,
    username: profile.psu.username,
    password: profile.psu.password,
    reject: options.reject,
    accounts: (Array.isArray(options.accounts) ? parseAccountChoice(options.accounts) : options.accounts) ?? profile.psu.accounts,
    debtor: options.debtor,
    stepTimeoutMs: profile.timeouts.browserStepMs,
    totalTimeoutMs: profile.timeouts.authorisationMs,
    evidenceDir: options.evidenceDir,
    onStep: options.onStep,
    log: ctx.log,
    trust: { caPem: profile.mtls?.ca, insecure: profile.tls.insecure },
  });
  return { pending, journey };
}

function describeError(params: URLSearchParams): string {
  const d = params.get('error_description');
  return d ? `: ${quoteOutside(d)}` : '';
}
