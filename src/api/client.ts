/**
 * The TPP operations for programs: the same tpp client, authorisation server client and PSU
 * journey the CLI and the conformance steps use, without the CLI's session file.
 */
import type { Fn, Profile, Variant } from '../profile/types.ts';
import { isCompletedProfile, loadProfile, profileFromObject } from '../profile/load.ts';
import { httpFromProfile } from '../client/factory.ts';
import type { HttpClient } from '../client/http.ts';
import type { Exchange } from '../client/exchange.ts';
import { TppClient } from '../client/operations.ts';
import type { Auth, AuthoriseOptions, AuthoriseResult, TokenSet } from '../auth/index.ts';
import type { PsuBrowser } from '../psu/index.ts';
import { UsageError } from '../errors.ts';

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** Environment for `${env:VAR}` when `profile` is a file, and for finding Chromium. Default: `process.env`. */
  env?: Record<string, string | undefined>;
  /** Working directory for a relative profile path. Default: `process.cwd()`. */
  cwd?: string;
  /** Called with every exchange (request and response, already redacted), as it happens. */
  onExchange?: (exchange: Exchange) => void;
  /** Called with warnings (e.g. TLS verification off). Default: stderr. */
  warn?: (message: string) => void;
}

/** A TPP for one profile and variant. Call {@link ObtppClient.close} when done. */
export interface ObtppClient {
  readonly profile: Profile;
  readonly variant: Variant;
  /**
   * One method per logical operation of the variant (`createAccountAccessConsent`, `listAccounts`,
   * `getBalances`, `createFundsConsent`, `confirmFunds`, `createPaymentConsent`, …). Each resolves
   * for every HTTP status with the parsed body and the redacted exchange; an operation the variant
   * does not list throws NotApplicableError.
   */
  readonly api: TppClient;
  /** The HTTP core (mTLS, capture, redaction) every call goes through. */
  readonly http: HttpClient;
  /** The bank's authorisation server (discovered once; DiscoveryError, exit code 3, when it cannot be). */
  auth(): Promise<Auth>;
  /** A client-credentials access token for one function's scope (`ais`, `cof`, `pis`), cached until near expiry. */
  clientCredentials(fn: Fn): Promise<TokenSet>;
  /**
   * The PSU's authorisation of one consent in headless Chromium (or manual, as the profile's PSU
   * driver says): authorization request with the intent id bound, the bank's pages, the redirect
   * back, the code exchanged. `outcome` is `authorised` (with tokens), `denied` or `code-after-reject`.
   */
  authorise(intentId: string, fn: Fn, options?: AuthoriseOptions): Promise<AuthoriseResult>;
  /** A refresh-token grant. */
  refresh(refreshToken: string): Promise<TokenSet>;
  /** Closes the browser (if one was started) and the connections. */
  close(): Promise<void>;
}

/**
 * The TPP operations for a profile (a loaded {@link Profile}; a profile object as a file would
 * hold it, such as `sandbox.profile()`, validated first; or a file / built-in name to load) and one
 * of its variants (default: its first).
 *
 * @example
 * const tpp = await createClient('sandbox.json', 'A');
 * const cc = await tpp.clientCredentials('ais');
 * const consent = await tpp.api.createAccountAccessConsent(body, { token: cc.accessToken });
 */
export async function createClient(profile: Profile | Record<string, unknown> | string, variant?: Variant, options: ClientOptions = {}): Promise<ObtppClient> {
  const env = options.env ?? process.env;
  const p = typeof profile === 'string'
    ? await loadProfile(profile, { env, cwd: options.cwd ?? process.cwd() })
    : isCompletedProfile(profile) ? profile : await profileFromObject(profile, { env, source: 'the profile object given to createClient' });
  const v = variant ?? p.variants[0]!;
  if (v !== 'A' && v !== 'B') throw new UsageError(`variant ${String(v)}: expected A or B`);
  if (!p.variants.includes(v)) throw new UsageError(`variant ${v}: profile ${p.name} has only variant ${p.variants.join(' and ')}`);
  const http = httpFromProfile(p, { onExchange: options.onExchange, warn: options.warn });
  const api = new TppClient(p, v, http);
  let authPromise: Promise<Auth> | undefined;
  let browser: PsuBrowser | undefined;
  const auth = () => {
    authPromise ??= import('../auth/index.ts').then(({ Auth }) => Auth.create(p, http));
    authPromise.catch(() => (authPromise = undefined));
    return authPromise;
  };
  return {
    profile: p,
    variant: v,
    api,
    http,
    auth,
    clientCredentials: async (fn) => (await auth()).clientCredentials(fn),
    refresh: async (token) => (await auth()).refresh(token),
    authorise: async (intentId, fn, authoriseOptions = {}) => {
      const [{ authorise }, { PsuBrowser }] = await Promise.all([import('../auth/index.ts'), import('../psu/index.ts')]);
      browser ??= new PsuBrowser({ env, stepTimeoutMs: p.timeouts.browserStepMs });
      return authorise({ auth: await auth(), browser, profile: p }, { intentId, fn }, authoriseOptions);
    },
    close: async () => {
      await browser?.close().catch(() => undefined);
      await http.close();
    },
  };
}
