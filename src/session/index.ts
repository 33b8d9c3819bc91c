/**
 * The terminal client's session: one profile and variant, the tpp client on top of it, and the
 * state that chains commands (consents, the current consent per function, tokens). The CLI
 * commands call this; nothing here prints or reads `process`.
 *
 * Heavy parts load only when needed: openid-client (discovery, grants) only when a token must be
 * fetched or refreshed, puppeteer only for a PSU journey.
 */
import { AuthorisationError, BankError, ObtppError, StateError, UsageError, ExitCode } from '../errors.ts';
import { loadProfile } from '../profile/load.ts';
import type { Fn, Profile, Variant } from '../profile/types.ts';
import { httpFromProfile } from '../client/factory.ts';
import { DpopKey, exportDpopKey, importDpopKey } from '../client/dpop-key.ts';
import type { HttpClient } from '../client/http.ts';
import type { Exchange } from '../client/exchange.ts';
import { TppClient, type ApiResult, type CallOptions, type Operation } from '../client/operations.ts';
import type { Auth, TokenSet } from '../auth/index.ts';
import type { PsuBrowser } from '../psu/index.ts';
import { baseStandard, findStandard, standardOf, standards } from '../standards/registry.ts';
import type { BankErrorWords } from '../standards/standard.ts';
import {
  StateFile, emptyProfileState, profileKey, statePath,
  type AccountSummary, type ConsentRecord, type ProfileState, type StoredRegistration, type StoredToken,
} from './state.ts';

export type { ConsentRecord, ProfileState, StoredToken, AccountSummary } from './state.ts';

/**
 * The profile with the client `obtpp register` issued in place of the one it does not give: the
 * client id and secret from the session state, the method the bank registered (the registration
 * key, already in the profile, for private_key_jwt), and the signing issuer when the profile left it
 * to the client id. Used only for a profile without auth.clientId: a client the profile gives wins.
 */
export function withRegisteredClient(profile: Profile, reg: StoredRegistration): Profile {
  const a = profile.auth;
  const method = (reg.tokenEndpointAuthMethod ?? a.clientAuth.method) as Profile['auth']['clientAuth']['method'];
  return {
    ...profile,
    auth: { ...a, clientId: reg.clientId, clientAuth: { ...a.clientAuth, method, ...(reg.clientSecret ? { secret: reg.clientSecret } : {}) } },
    ...(profile.signing ? { signing: { ...profile.signing, issuer: profile.signing.issuer || reg.clientId } } : {}),
    secrets: [...profile.secrets, ...[reg.clientSecret, reg.registrationAccessToken].filter((x): x is string => typeof x === 'string')],
  };
}

/** A token is used until this long before it expires; then it is refreshed (or fetched anew). */
const EXPIRY_MARGIN_MS = 30_000;

export const FN_NAMES: Record<Fn, string> = {
  ais: 'account-access consent',
  cof: 'funds-confirmation consent',
  pis: 'payment-order consent',
};

/** What a record is called in the profile's standard (its words: NextGenPSD2 has consents and payments, no "payment-order consent"). */
export function kindOf(dialect: string | undefined, fn: Fn): string {
  return findStandard(dialect)?.words.kinds?.[fn] ?? FN_NAMES[fn];
}

/**
 * Whether the profile's standard speaks a terminal command; a profile of one that does not is
 * told which commands the other standards speak.
 */
function refuseUnspoken(profile: Profile, command: string | undefined): void {
  const standard = standardOf(profile.dialect);
  if (command === undefined ? standard === baseStandard() : standard.terminal?.speaks(command)) return;
  const others = standards().filter((s) => s.words.commands).map((s) => `with ${s.name}: ${s.words.commands}`);
  throw new UsageError(`profile ${profile.name} speaks ${profile.dialect}: this command speaks only the ${baseStandard().name} dialect so far${others.length ? ` (${others.join('; ')})` : ''}`);
}

export interface SessionOptions {
  /** --profile (a file or a built-in name); OBTPP_PROFILE when absent. */
  profile?: string;
  variant?: string;
  /** --state */
  state?: string;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Every redacted exchange, as it happens (--verbose). */
  onExchange?: (exchange: Exchange) => void;
  warn?: (message: string) => void;
  /** The terminal command (`consent create ais`): a profile whose standard does not speak it is refused in one line. Default: a command of the base standard only. */
  command?: string;
  /**
   * A PSU browser lent by the program that opens the session (`openBrowser()`, as the CLI's
   * `Io.browser`): the PSU's journeys run in it, each in a context wiped between journeys, and
   * close() leaves it open. Absent: the session starts its own on its first journey.
   */
  browser?: PsuBrowser;
}

export interface AuthoriseRequest {
  accounts?: string[];
  debtor?: string;
  reject?: boolean;
  manual?: boolean;
  callbackPort?: number;
  /** Where manual mode prints the URL (stderr). */
  log?: (line: string) => void;
  onStep?: (description: string) => void;
  /** berlin-group, decoupled and embedded SCA: the PSU's id and secrets, the time allowed (berlin-group-sca.ts). */
  inApp?: InAppRequest;
}

/** What the PSU gives the TPP for an embedded SCA, and how long a decoupled one may take (berlin-group). */
export interface InAppRequest {
  /** PSU-ID; default the profile's psu.username. */
  psuId?: string;
  /** Where the password and the one-time password come from when neither the request nor the profile gives them (stdin, or a prompt). */
  secret?: (what: 'password' | 'one-time password') => Promise<string>;
  /** The PSU's password, when given up front (it wins over the profile's psu.password). */
  password?: string;
  /** The one-time password, when given up front; default the profile's sca.otp, else `secret`. */
  otp?: string;
  /** decoupled: give up after this many ms; default the profile's timeouts.authorisationMs. */
  timeoutMs?: number;
  /** decoupled: the first pause between two reads of the scaStatus (default 250 ms); each next is half as long again, up to 3 s (or this, when longer). */
  pollMs?: number;
  log?: (line: string) => void;
}

export type AuthoriseOutcome =
  | { status: 'authorised'; consentId: string; fn: Fn; accounts: string[]; debtor?: string; scope?: string; expiresAt?: string }
  /** `by: 'bank'`: the PSU went through the SCA, and the bank rejected it after (e.g. a payment RJCT for want of funds). */
  | { status: 'rejected'; consentId: string; fn: Fn; error: string; description?: string; by?: 'psu' | 'bank' }
  /** The bank refused the authorisation request itself (invalid_request_object, server_error, …): the consent is as it was. */
  | { status: 'refused'; consentId: string; fn: Fn; error: string; description?: string };

export class Session {
  readonly profile: Profile;
  readonly variant: Variant;
  readonly http: HttpClient;
  readonly client: TppClient;
  readonly state: StateFile;
  readonly key: string;
  private readonly identity: { profile: string; baseUrl: string; clientId: string; variant: Variant };
  private authPromise?: Promise<Auth>;
  private browser?: PsuBrowser;
  /** The browser lent by the session's opener (not closed here). */
  private readonly lent?: PsuBrowser;
  private readonly env: Record<string, string | undefined>;

  private constructor(profile: Profile, variant: Variant, state: StateFile, options: SessionOptions) {
    this.profile = profile;
    this.variant = variant;
    this.env = options.env;
    this.lent = options.browser;
    // DPoP-bound tokens outlive the process: the key they are bound to is kept in the state file (0600) with them.
    const dpop = new DpopKey({
      saved: async () => {
        const jwk = (await this.read()).dpopKey;
        return jwk ? importDpopKey(jwk) : undefined;
      },
      onMade: async (pair) => {
        const jwk = await exportDpopKey(pair);
        await this.update((s) => void (s.dpopKey = jwk));
      },
    });
    this.http = httpFromProfile(profile, { onExchange: options.onExchange, warn: options.warn, dpop });
    this.client = new TppClient(profile, variant, this.http);
    this.warn = options.warn;
    this.state = state;
    // A profile that leaves its client to `obtpp register` keeps one state, whichever client is registered.
    this.identity = { profile: profile.name, baseUrl: this.client.baseUrl, clientId: profile.auth.clientFrom === 'registration' ? '' : profile.auth.clientId, variant };
    this.key = profileKey(this.identity);
  }

  /** Resolves the profile (flag > OBTPP_PROFILE), the variant and the state file. */
  static async open(options: SessionOptions): Promise<Session> {
    const name = options.profile ?? (options.env.OBTPP_PROFILE || undefined);
    if (!name) throw new UsageError('no profile: pass --profile FILE (e.g. one written by obtpp sandbox --write-profile)');
    const path = statePath(options.state, options.env, options.cwd);
    const profile = await loadProfile(name, { env: options.env, cwd: options.cwd });
    refuseUnspoken(profile, options.command);
    let variant = profile.variants[0];
    if (options.variant !== undefined) {
      const v = options.variant.toUpperCase();
      if (v !== 'A' && v !== 'B') throw new UsageError(`--variant ${options.variant}: expected A or B`);
      if (!profile.variants.includes(v)) throw new UsageError(`--variant ${v}: profile ${profile.name} has only variant ${profile.variants.join(' and ')}`);
      variant = v;
    }
    const state = new StateFile(path);
    if (profile.auth.clientFrom !== 'registration') return new Session(profile, variant, state, options);
    const unfilled = new Session(profile, variant, state, options);
    const registered = (await unfilled.read()).registration;
    if (!registered) return unfilled;
    await unfilled.close();
    return new Session(withRegisteredClient(profile, registered), variant, state, options);
  }

  /**
   * The browser the PSU's journeys run in: the one lent to the session, else the session's own,
   * started on first use (`log`: where a manual journey prints its URL) and closed by close().
   */
  async psuBrowser(log?: (line: string) => void): Promise<PsuBrowser> {
    this.browser ??= this.lent;
    if (!this.browser) {
      const { PsuBrowser } = await import('../psu/index.ts');
      this.browser ??= new PsuBrowser({ env: this.env, ...(log ? { log } : {}) });
    }
    return this.browser;
  }

  /** Releases the HTTP connections and the browser (a lent one stays open). */
  async close(): Promise<void> {
    if (this.browser !== this.lent) await this.browser?.close().catch(() => undefined);
    await this.http.close();
  }

  // ------------------------------------------------------------------------------------------
  // State

  async read(): Promise<ProfileState> {
    const doc = await this.state.read();
    const ps = doc.profiles[this.key] ?? emptyProfileState(this.identity);
    // Every token and secret the session holds is scrubbed from whatever this command shows,
    // whether or not the command uses it (a bank may echo any of them).
    for (const t of [...Object.values(ps.tokens), ...Object.values(ps.clientCredentials)]) {
      this.http.redactor.add(t?.accessToken);
      this.http.redactor.add(t?.refreshToken);
      // A token the bank bound to the session's DPoP key goes out with a proof of it.
      if (t?.accessToken && (t.senderConstraint === 'dpop' || t.tokenType?.toLowerCase() === 'dpop')) this.http.dpop.bound.add(t.accessToken);
    }
    this.http.redactor.add(ps.registration?.clientSecret);
    this.http.redactor.add(ps.registration?.registrationAccessToken);
    return ps;
  }

  async update<T>(change: (ps: ProfileState) => T): Promise<T> {
    return this.state.update((doc) => {
      const ps = (doc.profiles[this.key] ??= emptyProfileState(this.identity));
      return change(ps);
    });
  }

  /** `--consent ID` (must be known) or the current consent of `fn`. */
  async consent(fn: Fn | undefined, id: string | undefined): Promise<ConsentRecord> {
    const ps = await this.read();
    const chosen = id ?? (fn ? ps.current[fn] : ps.last);
    if (!chosen) {
      const what = fn ? `no current ${kindOf(this.profile.dialect, fn)}` : 'no consent';
      throw new StateError('no_consent', `${what} for profile ${this.profile.name} (variant ${this.variant}): pass --consent ID or create one with obtpp consent create ${fn ?? standardOf(this.profile.dialect).words.consentKinds ?? 'ais|cof|pis'}`);
    }
    const record = ps.consents[chosen];
    if (!record) {
      throw new StateError('unknown_consent', `unknown consent ${chosen} for profile ${this.profile.name} (variant ${this.variant}) (see obtpp consent list, or create one with obtpp consent create)`);
    }
    if (fn && record.fn !== fn) {
      throw new UsageError(`${chosen} is a ${kindOf(this.profile.dialect, record.fn)}, not a ${kindOf(this.profile.dialect, fn)}`);
    }
    return record;
  }

  // ------------------------------------------------------------------------------------------
  // Tokens

  /** The bank's authorisation server (discovered once per session). */
  auth(): Promise<Auth> {
    this.authPromise ??= import('../auth/index.ts').then(({ Auth }) => Auth.create(this.profile, this.http));
    this.authPromise.catch(() => (this.authPromise = undefined));
    return this.authPromise;
  }

  /**
   * The authorisation server for registering: as `auth()`, or, for a profile that leaves its client
   * to `obtpp register` and has none yet, discovered as no client (registration needs none).
   */
  async authForRegistration(): Promise<Auth> {
    if (this.profile.auth.clientFrom !== 'registration' || this.profile.auth.clientId) return this.auth();
    const { Auth } = await import('../auth/index.ts');
    return Auth.create(this.profile, this.http, { unregistered: true });
  }

  /** The client-credentials token of a function: the cached one while valid, else a fresh one (saved). */
  async clientToken(fn: Fn): Promise<string> {
    return (await this.clientTokenFrom(fn, true)).token;
  }

  private async clientTokenFrom(fn: Fn, useCache: boolean): Promise<{ token: string; cached: boolean }> {
    const ps = await this.read();
    const cached = ps.clientCredentials[fn];
    // Two profiles may share name, base URL and client id and still name other servers: a token is
    // reused only at the authorisation server that issued it.
    const issuer = this.profile.auth.issuer ?? this.profile.auth.discoveryUrl;
    if (useCache && cached && fresh(cached) && cached.issuer === issuer) {
      this.http.redactor.add(cached.accessToken);
      return { token: cached.accessToken, cached: true };
    }
    const tokens = await (await this.auth()).clientCredentials(fn);
    const stored = { ...toStored(tokens), ...(issuer ? { issuer } : {}) };
    await this.update((s) => void (s.clientCredentials[fn] = stored));
    return { token: stored.accessToken, cached: false };
  }

  /**
   * Calls the bank with the function's client-credentials token. A cached token the bank refuses
   * (401: a restarted or reset bank forgets the tokens it issued) is fetched anew once and the
   * call repeated; a fresh token the bank refuses is the bank's answer.
   */
  async withClientToken(fn: Fn, call: (token: string) => Promise<ApiResult>): Promise<ApiResult> {
    const first = await this.clientTokenFrom(fn, true);
    const result = await call(first.token);
    if (result.status !== 401 || !first.cached) return result;
    await this.update((s) => void delete s.clientCredentials[fn]);
    return call((await this.clientTokenFrom(fn, false)).token);
  }

  /**
   * Runs `work` with the PSU's access token of a consent. When the bank refuses a token that was
   * not just refreshed (401: it restarted, or revoked the token early), the refresh token is used
   * once and `work` repeated; a refresh the bank refuses says to authorise again.
   */
  async withUserToken<T>(record: ConsentRecord, work: (token: string) => Promise<T>): Promise<T> {
    const before = (await this.read()).tokens[record.id]?.accessToken;
    const token = await this.userToken(record);
    try {
      return await work(token);
    } catch (error) {
      const refreshedJustNow = before !== token;
      const canRefresh = Boolean((await this.read()).tokens[record.id]?.refreshToken);
      if (!(error instanceof BankError) || error.status !== 401 || refreshedJustNow || !canRefresh) throw error;
      return work((await this.refresh(record.id)).accessToken);
    }
  }

  /**
   * Calls one operation under the token its catalogue entry names (`token`): its API's
   * client-credentials token, the PSU's token of `record`'s consent, or none. The answer is checked
   * against `expected` within the token's retry (a refused cached or expired token is renewed once,
   * as withClientToken and withUserToken do). `args` are the operation's ids and body, as its
   * method takes them; `options` the call's other options.
   */
  async invoke(operation: Operation, args: readonly unknown[], expected: number[], options: CallOptions & { record?: ConsentRecord } = {}): Promise<ApiResult> {
    const spec = this.client.specOf(operation);
    if (!spec) throw this.client.unsupported(operation);
    const { record, ...o } = options;
    const send = (token: string | null) => this.client.invoke(operation, [...args, { ...o, token }]);
    if (spec.token === 'client') return this.check(await this.withClientToken(spec.api, send), expected);
    if (spec.token === 'none') return this.check(await send(null), expected);
    if (!record) throw new Error(`${operation} is called under the PSU's token: the caller names the consent`);
    return this.withUserToken(record, async (token) => this.check(await send(token), expected));
  }

  /** The PSU's access token for a consent, refreshed (and saved) when it has expired. */
  async userToken(record: ConsentRecord): Promise<string> {
    const ps = await this.read();
    const token = ps.tokens[record.id];
    if (!token) {
      throw new StateError('not_authorised', `consent ${record.id} is not authorised yet: run obtpp consent authorise ${record.id}`);
    }
    this.http.redactor.add(token.accessToken);
    this.http.redactor.add(token.refreshToken);
    if (fresh(token)) return token.accessToken;
    if (!token.refreshToken) {
      throw new StateError('token_expired', `the access token of consent ${record.id} has expired and there is no refresh token: run obtpp consent authorise ${record.id}`);
    }
    return (await this.refresh(record.id)).accessToken;
  }

  /** A refresh-token grant for one consent's tokens; the new ones replace the old (the refresh token is kept when none comes back). */
  async refresh(consentId: string): Promise<StoredToken> {
    const ps = await this.read();
    const token = ps.tokens[consentId];
    if (!token) throw new StateError('not_authorised', `consent ${consentId} is not authorised yet: run obtpp consent authorise ${consentId}`);
    if (!token.refreshToken) throw new StateError('no_refresh_token', `consent ${consentId} has no refresh token: run obtpp consent authorise ${consentId}`);
    this.http.redactor.add(token.refreshToken);
    this.http.redactor.add(token.accessToken);
    let tokens: TokenSet;
    try {
      tokens = await (await this.auth()).refresh(token.refreshToken);
    } catch (error) {
      if (!(error instanceof AuthorisationError) || error.oauthError !== 'invalid_grant') throw error;
      // The bank no longer knows this grant (it restarted, or the consent ended): the tokens are
      // useless, and only a new authorisation by the PSU gives new ones.
      await this.update((s) => void delete s.tokens[consentId]);
      throw new ObtppError('refresh_refused', `the bank refused the refresh token of consent ${consentId} (invalid_grant): run obtpp consent authorise ${consentId} again (its old tokens are forgotten)`, { exitCode: ExitCode.nonConformant, cause: error });
    }
    const stored: StoredToken = { ...toStored(tokens), intentId: token.intentId };
    stored.refreshToken ??= token.refreshToken;
    await this.update((s) => void (s.tokens[consentId] = stored));
    return stored;
  }

  // ------------------------------------------------------------------------------------------
  // Calls

  private readonly warn?: (message: string) => void;

  /**
   * A bank answer outside `expected` becomes BankError (exit 1) in the bank's own words. A payment
   * answer whose x-jws-signature does not hold is still returned, with a warning: the TPP decides.
   */
  check(result: ApiResult, expected: number[]): ApiResult {
    if (result.httpSignature && !result.httpSignature.valid) {
      this.warn?.(`WARNING: the bank's signature on ${result.exchange.method} ${result.exchange.url} does not hold (bank.signingCertificate): ${result.httpSignature.problem}`);
    }
    if (result.signature && !result.signature.valid) {
      this.warn?.(`WARNING: the bank's x-jws-signature on ${result.exchange.method} ${result.exchange.url} does not hold (UK.OBIE.Signature.${result.signature.code}): ${result.signature.problem}`);
    }
    const unusable = result.exchange.response?.note;
    if (expected.includes(result.status) && unusable) {
      // An answer that is JSON obtpp will not walk (nested too deep): the bank's error, in one line.
      const path = result.exchange.url.startsWith(this.client.baseUrl) ? result.exchange.url.slice(this.client.baseUrl.length) || '/' : result.exchange.url;
      throw new BankError(result.status, `the bank answered ${result.exchange.method} ${path} with ${result.status} and a body obtpp cannot use (${unusable})`, { exchange: result.exchange });
    }
    if (expected.includes(result.status)) return result;
    throw refusal(this.client.baseUrl, result, this.http, this.profile.dialect);
  }

  /** The PSU journey for one consent (Chromium, or manual); saves the tokens and makes the consent current. */
  async authorise(record: ConsentRecord, request: AuthoriseRequest): Promise<AuthoriseOutcome> {
    const { authorise } = await import('../auth/index.ts');
    let profile = this.profile;
    if (request.manual || request.callbackPort !== undefined) {
      const base = profile.psu.driver.kind === 'manual' ? profile.psu.driver : { kind: 'manual' as const };
      // When the bank itself serves the redirect URI's port (the sandbox does), the loopback
      // server cannot listen there: take a free port and let the PSU paste the final address.
      let callbackPort = request.callbackPort ?? base.callbackPort;
      if (callbackPort === undefined && sameOrigin(profile.auth.redirectUri, profile.auth.issuer ?? profile.auth.discoveryUrl)) callbackPort = 0;
      profile = { ...profile, psu: { ...profile.psu, driver: { kind: 'manual', ...(callbackPort !== undefined ? { callbackPort } : {}) } } };
    }
    const browser = await this.psuBrowser(request.log);
    // Chromium starts while the bank's discovery and the authorisation request are under way.
    if (profile.psu.driver.kind !== 'manual') void browser.warm({ caPem: profile.mtls?.ca, insecure: profile.tls.insecure }).catch(() => undefined);
    const auth = await this.auth();
    const result = await authorise(
      { auth, browser, profile, log: request.log },
      { intentId: record.id, fn: record.fn },
      { accounts: request.accounts, debtor: request.debtor, reject: request.reject, onStep: request.onStep },
    );
    if (result.outcome === 'denied') {
      const description = result.description ? { description: result.description } : {};
      // State changes only on what the bank confirmed: access_denied is the PSU's rejection
      // (RFC 6749 §4.1.2.1); any other error refused the request, and the consent is as it was.
      if (result.error !== 'access_denied') return { status: 'refused', consentId: record.id, fn: record.fn, error: result.error, ...description };
      await this.update((s) => {
        const r = s.consents[record.id];
        if (r) r.status = 'Rejected';
        delete s.tokens[record.id];
        s.last = record.id;
      });
      return { status: 'rejected', consentId: record.id, fn: record.fn, error: result.error, ...description };
    }
    if (result.outcome === 'code-after-reject') {
      throw new ObtppError('code_after_reject', `the PSU rejected consent ${record.id}, yet the bank redirected back with an authorization code (and its tokens work): the bank should have answered error=access_denied`, { exitCode: ExitCode.nonConformant });
    }
    const stored = toStored(result.tokens);
    const claim = result.tokens.claims?.openbanking_intent_id;
    if (typeof claim === 'string') stored.intentId = claim;
    const accounts = result.journey.selectedAccounts;
    await this.update((s) => {
      s.tokens[record.id] = stored;
      const r = s.consents[record.id] ?? (s.consents[record.id] = record);
      r.status = 'Authorised';
      if (accounts.length) r.accountIds = [...accounts];
      // A VRP or payment-family consent is current as such; the payment-order consent stays what it was.
      s.current[r.vrp ? 'vrp' : r.family ? 'pay' : record.fn] = record.id;
      s.last = record.id;
    });
    const outcome: AuthoriseOutcome = { status: 'authorised', consentId: record.id, fn: record.fn, accounts: [...accounts] };
    if (result.journey.debtorChosen) outcome.debtor = result.journey.debtorChosen;
    if (stored.scope) outcome.scope = stored.scope;
    if (stored.expiresAt) outcome.expiresAt = new Date(stored.expiresAt).toISOString();
    return outcome;
  }

  /** Remembers what a listing showed of the accounts behind an AIS consent. */
  async rememberAccounts(consentId: string, accounts: AccountSummary[]): Promise<void> {
    await this.update((s) => {
      const r = s.consents[consentId];
      if (!r) return;
      const known = new Map((r.accounts ?? []).map((a) => [a.AccountId, a]));
      for (const a of accounts) known.set(a.AccountId, { ...known.get(a.AccountId), ...a });
      r.accounts = [...known.values()];
      r.accountIds = [...new Set([...(r.accountIds ?? []), ...accounts.map((a) => a.AccountId)])];
    });
  }

  /** Updates the status obtpp remembers for a consent (after a read of it). */
  async rememberStatus(consentId: string, status: string | undefined): Promise<void> {
    if (!status) return;
    await this.update((s) => {
      const r = s.consents[consentId];
      if (r) r.status = status;
    });
  }
}

function fresh(token: StoredToken): boolean {
  return token.expiresAt === undefined || token.expiresAt - EXPIRY_MARGIN_MS > Date.now();
}

function toStored(tokens: TokenSet): StoredToken {
  const out: StoredToken = { accessToken: tokens.accessToken, tokenType: tokens.tokenType, obtainedAt: Date.now(), ...(tokens.senderConstraint ? { senderConstraint: tokens.senderConstraint } : {}) };
  if (tokens.refreshToken) out.refreshToken = tokens.refreshToken;
  if (tokens.expiresAt !== undefined) out.expiresAt = tokens.expiresAt;
  if (tokens.scope) out.scope = tokens.scope;
  return out;
}

function sameOrigin(a: string, b: string | undefined): boolean {
  if (!b) return false;
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/**
 * `the bank refused GET /accounts: 403 UK.OBIE.Resource.ConsentMismatch: <Message>`: the bank's
 * error body read by the profile's standard (its `readError`), else by another standard's (a bank
 * may answer an error of another shape).
 */
export function refusal(baseUrl: string, result: ApiResult, http: HttpClient, dialect?: string): BankError {
  const ex = result.exchange;
  const path = ex.url.startsWith(baseUrl) ? ex.url.slice(baseUrl.length) || '/' : ex.url;
  const mine = findStandard(dialect) ?? baseStandard();
  let said: BankErrorWords | undefined;
  for (const standard of [mine, ...standards().filter((s) => s !== mine)]) if ((said = standard.readError?.(result.body))) break;
  const line = http.redactor.text(`the bank refused ${ex.method} ${path}: ${result.status}${said?.words ?? ''}`);
  // Why a token was refused, in the standard's words.
  const hint = result.status !== 401 ? undefined : findStandard(dialect)?.unauthorisedHint ?? baseStandard().unauthorisedHint;
  return new BankError(result.status, line, { bankCode: said?.codes[0], exchange: ex, hint });
}
