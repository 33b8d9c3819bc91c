/**
 * The TPP's side of OAuth 2.0 / OpenID Connect, on openid-client v6: discovery, client
 * credentials, authorization code with PKCE + state + nonce and id_token checks, the intent id bound
 * to the authorisation as the profile says, refresh. Client authentication by
 * client_secret_basic / client_secret_post, private_key_jwt or tls_client_auth; every request to the
 * authorisation server goes through the profile's HttpClient (`http.fetch`), so mTLS, capture and
 * redaction apply to it exactly as to the API calls.
 */
import * as client from 'openid-client';
import { AuthorisationError, ExitCode, HttpError, ObtppError, ProfileError } from '../errors.ts';
import type { Exchange } from '../client/exchange.ts';
import type { HttpClient, HttpResult } from '../client/http.ts';
import type { Fn, Profile } from '../profile/types.ts';
import { importSigningKey, type SigningKey } from './keys.ts';

import type { AuthorisationServer, BeginOptions, PendingAuthorisation, PkceMethod, TokenSet } from './types.ts';
import { quoteOutside } from '../outside-text.ts';

export { authorise } from './authorise.ts';
export type { AuthoriseContext, AuthoriseOptions, AuthoriseResult, WithJourney } from './authorise.ts';
export type { AuthorisationServer, BeginOptions, PendingAuthorisation, PkceMethod, TokenSet } from './types.ts';



/**
 * The bank's authorisation server could not be discovered or understood (a 404, an HTML page,
 * JSON that is not a discovery document, no authorization_endpoint). Nothing was judged yet, so
 * this is "could not run" (exit 3), with the URL and what came back.
 */
export class DiscoveryError extends ObtppError {
  readonly url: string;
  /** What the bank answered, when it answered at all. */
  readonly response?: { status: number; contentType?: string; excerpt?: string };
  constructor(url: string, message: string, options: { response?: DiscoveryError['response']; cause?: unknown; hint?: string } = {}) {
    super('discovery_failed', message, {
      cause: options.cause,
      exitCode: ExitCode.cannotRun,
      hint: options.hint ?? 'check auth.issuer / auth.discoveryUrl in the profile: it must serve the OpenID Provider configuration (JSON)',
    });
    this.url = url;
    this.response = options.response;
  }
}



/** Discovery documents already fetched, by discovery URL (so a run discovers once). */
const discovered = new Map<string, { metadata: client.ServerMetadata; at: number }>();
const DISCOVERY_TTL_MS = 5 * 60_000;
/** The client id discovery runs under before `obtpp register` issued one (it never reaches the bank). */
const UNREGISTERED = 'obtpp-unregistered';
/** A cached client-credentials token is reused until this long before it expires. */
const EXPIRY_MARGIN_MS = 30_000;

export class Auth implements AuthorisationServer {
  readonly issuer: string;
  readonly authorizationEndpoint: string;
  readonly profile: Profile;
  private readonly config: client.Configuration;
  private readonly http: HttpClient;
  private readonly signingKey?: SigningKey;
  private readonly ccCache = new Map<Fn, Promise<TokenSet>>();

  private constructor(profile: Profile, http: HttpClient, config: client.Configuration, signingKey: SigningKey | undefined) {
    this.profile = profile;
    this.http = http;
    this.config = config;
    this.signingKey = signingKey;
    const meta = config.serverMetadata();
    this.issuer = meta.issuer;
    if (!meta.authorization_endpoint) {
      throw new DiscoveryError(meta.issuer, `discovery: the bank's discovery document (${meta.issuer}) has no authorization_endpoint`);
    }
    this.authorizationEndpoint = meta.authorization_endpoint;
  }

  /**
   * Discovers the authorisation server (once per run and discovery URL) and sets up client
   * authentication as `profile.auth.clientAuth` says. `http` must be the profile's HttpClient
   * (with its mTLS certificate for tls_client_auth).
   */
  static async create(profile: Profile, http: HttpClient, options: { unregistered?: boolean } = {}): Promise<Auth> {
    const a = profile.auth;
    if (a.absent) {
      throw new ProfileError(`profile ${profile.source}: $.auth: the profile has no auth block (the bank has no authorisation server), and this needs one`, ['$.auth'], {
        hint: 'give the bank\'s auth block (issuer, clientId, clientAuth, redirectUri) when it offers OAuth2',
      });
    }
    const where = a.discoveryUrl ?? a.issuer;
    // A profile that leaves the client to `obtpp register`, before any registration: discovery (and
    // registration itself) only, as no client (`unregistered`); anything else needs the client first.
    const clientless = a.clientFrom === 'registration' && !a.clientId;
    if (clientless && !options.unregistered) {
      throw new ProfileError(`profile ${profile.source}: $.auth.clientId: the profile gives no client of its own and none is registered yet`, ['$.auth.clientId'], {
        hint: 'run obtpp register (the TPP commands then use the client it issued; obtpp conform needs the profile\'s own), or give auth.clientId and auth.clientAuth',
      });
    }
    if (!where) throw new ProfileError('$.auth: an issuer or a discoveryUrl is required', ['$.auth.issuer']);
    const server = new URL(where);
    const insecure = server.protocol === 'http:';
    if (insecure && !isLoopback(server.hostname) && !profile.tls.insecure) {
      throw new ProfileError(`$.auth: the authorisation server ${server.origin} is plain http; only loopback addresses may be (or set tls.insecure: true)`, ['$.auth.issuer'], {
        hint: 'use the bank\'s https issuer',
      });
    }
    for (const s of [a.clientAuth.secret, a.clientAuth.privateKey]) http.redactor.add(s);

    let signingKey: SigningKey | undefined;
    // The key also signs the request objects the conformance suite's FAPI checks send (SEC-11).
    if (a.clientAuth.method === 'private_key_jwt' || a.intentBinding.method === 'request-object' || a.clientAuth.privateKey) {
      signingKey = await importSigningKey(a.clientAuth);
    }

    let clientAuth: client.ClientAuth = client.None();
    const metadata: Partial<client.ClientMetadata> = {};
    if (!clientless) switch (a.clientAuth.method) {
      case 'client_secret_basic':
      case 'client_secret_post': {
        const secret = a.clientAuth.secret;
        if (!secret) throw new ProfileError(`$.auth.clientAuth.secret: required for ${a.clientAuth.method}`, ['$.auth.clientAuth.secret']);
        metadata.client_secret = secret;
        clientAuth = a.clientAuth.method === 'client_secret_basic' ? client.ClientSecretBasic(secret) : client.ClientSecretPost(secret);
        break;
      }
      case 'private_key_jwt':
        clientAuth = client.PrivateKeyJwt({ key: signingKey!.key, kid: signingKey!.kid });
        break;
      case 'tls_client_auth':
        clientAuth = client.TlsClientAuth();
        break;
    }

    const clientId = clientless ? UNREGISTERED : a.clientId;
    const execute = insecure ? [client.allowInsecureRequests] : [];
    const key = server.href;
    let cached = discovered.get(key);
    if (cached && Date.now() - cached.at > DISCOVERY_TTL_MS) cached = undefined;
    let config: client.Configuration;
    try {
      if (cached) {
        config = new client.Configuration(cached.metadata, clientId, metadata, clientAuth);
        for (const fn of execute) fn(config);
      } else {
        const seen: Exchange[] = [];
        const stop = http.recordInto(seen);
        try {
          config = await client.discovery(server, clientId, metadata, clientAuth, {
            execute,
            [client.customFetch]: http.fetch as unknown as client.CustomFetch,
            timeout: Math.ceil(http.timeoutMs / 1000),
          });
        } catch (error) {
          throw discoveryError(error, server, seen.at(-1));
        } finally {
          stop();
        }
        discovered.set(key, { metadata: { ...config.serverMetadata() }, at: Date.now() });
      }
    } catch (error) {
      throw http.redactor.error(mapError(error, 'discovery'));
    }
    config[client.customFetch] = http.fetch as unknown as client.CustomFetch;
    config.timeout = Math.ceil(http.timeoutMs / 1000);
    // With mTLS client auth, a bank may publish separate mTLS endpoints; use them when it does.
    if (a.clientAuth.method === 'tls_client_auth' && config.serverMetadata().mtls_endpoint_aliases) {
      config = new client.Configuration({ ...config.serverMetadata() }, clientId, { ...metadata, use_mtls_endpoint_aliases: true }, clientAuth);
      for (const fn of execute) fn(config);
      config[client.customFetch] = http.fetch as unknown as client.CustomFetch;
      config.timeout = Math.ceil(http.timeoutMs / 1000);
    }
    if (a.par === 'always' && !parEndpointOf(config.serverMetadata(), a.clientAuth.method)) {
      throw new ProfileError(`$.auth.par: always, but the bank's discovery document (${config.serverMetadata().issuer}) advertises no pushed_authorization_request_endpoint`, ['$.auth.par'], {
        hint: 'set auth.par to auto (PAR where the bank offers it) or never',
      });
    }
    return new Auth(profile, http, config, signingKey);
  }

  /** A client-credentials token for one function's scope, reused until ~30 s before it expires. */
  clientCredentials(fn: Fn): Promise<TokenSet> {
    const hit = this.ccCache.get(fn);
    if (hit) {
      return hit.then((t) => (t.expiresAt !== undefined && t.expiresAt - EXPIRY_MARGIN_MS < Date.now() ? this.fetchClientCredentials(fn) : t));
    }
    return this.fetchClientCredentials(fn);
  }

  private fetchClientCredentials(fn: Fn): Promise<TokenSet> {
    const params: Record<string, string> = { scope: this.profile.auth.scopes[fn] };
    if (this.profile.auth.resource) params.resource = this.profile.auth.resource;
    const p = client
      .clientCredentialsGrant(this.config, params)
      .then((res) => this.toTokenSet(res, 'client_credentials'))
      .catch((error: unknown) => {
        throw this.http.redactor.error(mapError(error, 'client credentials grant'));
      });
    this.ccCache.set(fn, p);
    p.catch(() => {
      if (this.ccCache.get(fn) === p) this.ccCache.delete(fn);
    });
    return p;
  }

  /** Forgets cached client-credentials tokens (e.g. after the bank revoked one). */
  forgetClientCredentials(): void {
    this.ccCache.clear();
  }

  /**
   * Builds the authorization URL for one consent: PKCE (S256), state, nonce, the function's scope
   * with `openid` (and `offline_access` when the profile asks), the intent id bound as
   * `profile.auth.intentBinding` says, and `resource` when the profile has one. Where the bank
   * offers pushed authorization requests (and `auth.par` is not `never`), the parameters are
   * pushed (RFC 9126) and the URL carries only the client id and the request_uri.
   *
   * `options` are for the conformance suite's checks (SEC-12, SEC-13): see BeginOptions.
   */
  async begin(intentId: string, fn: Fn, options: BeginOptions = {}): Promise<PendingAuthorisation> {
    const par = options.par ?? this.usesPar;
    const { params, state, nonce, codeVerifier } = await this.authorizationParams(intentId, fn, options.pkce ?? 'S256');
    let url: URL;
    try {
      url = await this.authorizationUrl(params);
      if (par) url = await client.buildAuthorizationUrlWithPAR(this.config, url.searchParams);
    } catch (error) {
      throw this.http.redactor.error(mapError(error, par ? 'the pushed authorization request' : 'building the authorization request'));
    }
    return { url: url.href, state, nonce, ...(codeVerifier ? { codeVerifier } : {}), intentId, fn, redirectUri: this.profile.auth.redirectUri };
  }

  /** The authorization URL of these parameters: in a signed request object where the intent is bound so, else on the query. */
  private async authorizationUrl(params: Record<string, string>): Promise<URL> {
    const binding = this.profile.auth.intentBinding;
    if (binding.method !== 'request-object') return client.buildAuthorizationUrl(this.config, params);
    const typ = binding.requestObjectTyp;
    const modify: client.ModifyAssertionOptions = typ
      ? { [client.modifyAssertion]: (header: Record<string, unknown>) => void (header.typ = typ) }
      : {};
    return client.buildAuthorizationUrlWithJAR(this.config, params, { key: this.signingKey!.key, kid: this.signingKey!.kid }, modify);
  }

  /** The parameters of one authorisation request (before any request object or PAR). */
  private async authorizationParams(intentId: string, fn: Fn, pkce: PkceMethod): Promise<{ params: Record<string, string>; state: string; nonce: string; codeVerifier?: string }> {
    const a = this.profile.auth;
    const binding = a.intentBinding;
    const state = client.randomState();
    const nonce = client.randomNonce();
    let fnScope = a.scopes[fn];
    if (binding.method === 'scope') {
      const template = binding.scopeTemplate ?? '{scope}:{intentId}';
      fnScope = fnScope
        .split(/\s+/)
        .filter(Boolean)
        .map((s) => template.split('{scope}').join(s).split('{intentId}').join(intentId))
        .join(' ');
    }
    const scope = ['openid', fnScope, a.offlineAccess ? 'offline_access' : ''].filter(Boolean).join(' ');
    const params: Record<string, string> = { redirect_uri: a.redirectUri, response_type: 'code', scope, state, nonce };
    let codeVerifier: string | undefined;
    if (pkce !== 'none') {
      codeVerifier = client.randomPKCECodeVerifier();
      this.http.redactor.add(codeVerifier);
      params.code_challenge = pkce === 'S256' ? await client.calculatePKCECodeChallenge(codeVerifier) : codeVerifier;
      params.code_challenge_method = pkce;
    }
    if (a.resource) params.resource = a.resource;
    if (binding.method === 'claims' || binding.method === 'request-object') {
      const claim = { openbanking_intent_id: { value: intentId, essential: true } };
      params.claims = JSON.stringify({ id_token: claim, userinfo: claim });
    }
    if (binding.method === 'query') params[binding.parameter ?? 'consent_id'] = intentId;
    return { params, state, nonce, ...(codeVerifier ? { codeVerifier } : {}) };
  }

  /** The bank's pushed authorization request endpoint (RFC 9126), when its discovery advertises one. */
  get parEndpoint(): string | undefined {
    return parEndpointOf(this.config.serverMetadata(), this.profile.auth.clientAuth.method);
  }

  /**
   * Whether obtpp pushes its authorization requests (PAR): `auth.par: auto` (the default) where the
   * bank advertises a PAR endpoint, `always` (and `Auth.create` refused a bank without one), `never`.
   */
  get usesPar(): boolean {
    const par = this.profile.auth.par;
    return par !== 'never' && this.parEndpoint !== undefined;
  }

  /** The PKCE methods the bank's discovery advertises (code_challenge_methods_supported). */
  get pkceMethods(): string[] {
    return this.config.serverMetadata().code_challenge_methods_supported ?? [];
  }

  /**
   * One pushed authorization request sent WITHOUT client authentication (SEC-12): what obtpp would
   * push for the consent (the client_id, and the parameters or the signed request object), form-encoded,
   * and nothing that authenticates the client. The answer as it came.
   */
  async unauthenticatedPar(intentId: string, fn: Fn): Promise<HttpResult> {
    const at = this.parEndpoint;
    if (!at) throw new ProfileError('the bank advertises no pushed_authorization_request_endpoint', ['$.auth.par']);
    const { params } = await this.authorizationParams(intentId, fn, 'S256');
    const body = (await this.authorizationUrl(params)).searchParams.toString();
    return this.http.request('POST', at, { headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body });
  }

  /** The registration endpoint (DCR): the profile's, else the one discovery advertises. */
  get registrationEndpoint(): string | undefined {
    return this.profile.registration?.endpoint ?? this.config.serverMetadata().registration_endpoint;
  }

  /**
   * A client-credentials token for another client of this bank (one obtpp just registered), with
   * a client secret; the answer is the token endpoint's, through the same HTTP core.
   */
  async clientCredentialsAs(clientId: string, secret: string, method: string, scope: string): Promise<TokenSet> {
    this.http.redactor.add(secret);
    const auth = method === 'client_secret_post' ? client.ClientSecretPost(secret) : client.ClientSecretBasic(secret);
    const config = new client.Configuration({ ...this.config.serverMetadata() }, clientId, { client_secret: secret }, auth);
    if (new URL(this.issuer).protocol === 'http:') client.allowInsecureRequests(config);
    config[client.customFetch] = this.http.fetch as unknown as client.CustomFetch;
    config.timeout = Math.ceil(this.http.timeoutMs / 1000);
    try {
      return this.toTokenSet(await client.clientCredentialsGrant(config, { scope }), 'client_credentials');
    } catch (error) {
      throw this.http.redactor.error(mapError(error, 'client credentials grant (registered client)'));
    }
  }

  /** Whether the bank's discovery document advertises request objects (`request_parameter_supported`, default false). */
  get requestObjectsSupported(): boolean {
    return this.config.serverMetadata().request_parameter_supported === true;
  }

  /** Whether the profile gives a key to sign request objects with. */
  get canSignRequestObjects(): boolean {
    return this.signingKey !== undefined;
  }

  /**
   * An authorization URL whose request object has one defect the bank must refuse (FAPI, as UK
   * banks enforce it): `none` (alg none, unsigned), `no-exp`, `expired` (exp an hour ago), or
   * `well-formed` (no defect: the control). The request object carries every parameter, the
   * intent id bound in its `claims`, and the same parameters are repeated on the query (OIDC).
   * `defect: 'well-formed'` and the others need the profile's signing key, except `none`.
   */
  async requestObjectUrl(intentId: string, fn: Fn, defect: 'well-formed' | 'none' | 'no-exp' | 'expired'): Promise<{ url: string; state: string }> {
    const a = this.profile.auth;
    const state = client.randomState();
    const codeVerifier = client.randomPKCECodeVerifier();
    this.http.redactor.add(codeVerifier);
    const claim = { openbanking_intent_id: { value: intentId, essential: true } };
    const params: Record<string, string> = {
      client_id: a.clientId,
      redirect_uri: a.redirectUri,
      response_type: 'code',
      scope: ['openid', a.scopes[fn]].join(' '),
      state,
      nonce: client.randomNonce(),
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    };
    const now = Math.floor(Date.now() / 1000);
    const payload: Record<string, unknown> = {
      ...params, claims: { id_token: claim, userinfo: claim },
      iss: a.clientId, aud: this.issuer, iat: now, nbf: now, jti: client.randomState(),
      exp: defect === 'expired' ? now - 3600 : now + 300,
    };
    if (defect === 'expired') Object.assign(payload, { iat: now - 4000, nbf: now - 4000 });
    if (defect === 'no-exp') delete payload.exp;
    let request: string;
    if (defect === 'none') {
      const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
      request = `${part({ alg: 'none', typ: 'oauth-authz-req+jwt' })}.${part(payload)}.`;
    } else {
      if (!this.signingKey) throw new ProfileError('$.auth.clientAuth.privateKey: a key to sign request objects is needed for this check', ['$.auth.clientAuth.privateKey']);
      const { SignJWT } = await import('jose');
      const header = { alg: this.signingKey.alg, typ: a.intentBinding.requestObjectTyp ?? 'oauth-authz-req+jwt', ...(this.signingKey.kid ? { kid: this.signingKey.kid } : {}) };
      request = await new SignJWT(payload).setProtectedHeader(header).sign(this.signingKey.key);
    }
    const url = new URL(this.authorizationEndpoint);
    for (const [k, v] of Object.entries({ client_id: a.clientId, response_type: 'code', scope: params.scope, redirect_uri: a.redirectUri, request })) url.searchParams.set(k, v);
    return { url: url.href, state };
  }

  /**
   * Turns the redirect back from the bank into tokens. The state is checked first (a forged or
   * mixed-up one → `state_mismatch`), then an `error=` answer becomes AuthorisationError(<error>),
   * then the code is exchanged with the PKCE verifier and the id_token checked (signature, iss,
   * aud, exp, nonce). `openbanking_intent_id` is returned in `claims` when the bank echoes it; its
   * absence is for the conformance suite to judge, not an error here.
   */
  async finish(pending: PendingAuthorisation, callbackUrl: string): Promise<TokenSet> {
    let url: URL;
    try {
      url = new URL(callbackUrl);
    } catch {
      throw new AuthorisationError('invalid_response', 'the redirect back from the bank is not a URL');
    }
    const params = url.searchParams;
    const state = params.get('state');
    if (state !== pending.state) {
      throw new AuthorisationError(
        'state_mismatch',
        state === null
          ? 'the redirect back from the bank carries no state (possible forgery or a mixed-up session)'
          : 'the state in the redirect back from the bank is not the one sent (possible forgery or a mixed-up session)',
      );
    }
    const error = params.get('error');
    if (error) {
      const description = params.get('error_description');
      throw new AuthorisationError(error, `the bank answered the authorisation with error=${quoteOutside(error)}${description ? `: ${quoteOutside(description)}` : ''}`);
    }
    const code = params.get('code');
    if (!code) throw new AuthorisationError('invalid_response', 'the redirect back from the bank has neither a code nor an error');
    this.http.redactor.add(code);

    const tokenParams: Record<string, string> = {};
    if (this.profile.auth.resource) tokenParams.resource = this.profile.auth.resource;
    try {
      const res = await client.authorizationCodeGrant(
        this.config,
        url,
        { pkceCodeVerifier: pending.codeVerifier, expectedState: pending.state, expectedNonce: pending.nonce, idTokenExpected: true },
        tokenParams,
      );
      return this.toTokenSet(res, 'authorization_code');
    } catch (e) {
      throw this.http.redactor.error(mapError(e, 'authorization code exchange'));
    }
  }

  /** A refresh-token grant; the new tokens replace the old ones (and are taught to redaction). */
  async refresh(refreshToken: string): Promise<TokenSet> {
    this.http.redactor.add(refreshToken);
    const params: Record<string, string> = {};
    if (this.profile.auth.resource) params.resource = this.profile.auth.resource;
    try {
      const res = await client.refreshTokenGrant(this.config, refreshToken, params);
      return this.toTokenSet(res, 'refresh_token');
    } catch (error) {
      throw this.http.redactor.error(mapError(error, 'refresh token grant'));
    }
  }

  private toTokenSet(res: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers, grant: TokenSet['grant']): TokenSet {
    this.http.learnTokens(res);
    const expiresIn = res.expiresIn();
    const claims = res.claims();
    const tokens: TokenSet = { accessToken: res.access_token, tokenType: res.token_type, grant };
    if (res.refresh_token) tokens.refreshToken = res.refresh_token;
    if (res.id_token) tokens.idToken = res.id_token;
    if (expiresIn !== undefined) tokens.expiresAt = Date.now() + expiresIn * 1000;
    if (typeof res.scope === 'string') tokens.scope = res.scope;
    if (claims) tokens.claims = { ...claims };
    return tokens;
  }
}

/**
 * A failed discovery in the user's terms: the URL asked, and what came back (status,
 * content type, the start of the body), or the transport failure as the HTTP core named it.
 */
function discoveryError(error: unknown, server: URL, exchange: Exchange | undefined): Error {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof HttpError) return e;
  }
  const url = exchange?.url ?? server.href;
  const response = exchange?.response;
  if (!response) {
    return new DiscoveryError(url, `discovery: ${url} could not be used: ${(error as Error)?.message ?? String(error)}`, { cause: error });
  }
  const contentType = response.headers['content-type'];
  const text = response.body === undefined ? '' : typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
  const excerpt = text.replace(/\s+/g, ' ').trim().slice(0, 120);
  const what = response.status < 200 || response.status >= 300
    ? `answered ${response.status}`
    : !response.json
      ? `answered ${response.status} with ${contentType ? contentType : 'no content type'}, not a JSON discovery document`
      : typeof response.body === 'string'
        ? `answered ${response.status} with a JSON document of ${response.bytes} bytes that obtpp cannot use (${(error as Error)?.message ?? 'rejected'})`
      : typeof response.body !== 'object' || response.body === null || typeof (response.body as { issuer?: unknown }).issuer !== 'string'
        ? `answered ${response.status} with JSON that is not a discovery document (no issuer)`
        : `answered ${response.status} with a discovery document obtpp cannot use (${(error as Error)?.message ?? 'rejected'})`;
  const detail = [contentType && (response.status < 200 || response.status >= 300) ? `content-type ${contentType}` : '', excerpt ? `body: ${JSON.stringify(excerpt + (text.length > 120 ? '…' : ''))}` : 'empty body'].filter(Boolean).join(', ');
  return new DiscoveryError(url, `discovery: ${url} ${what} (${detail})`, {
    cause: error,
    response: { status: response.status, ...(contentType ? { contentType } : {}), ...(excerpt ? { excerpt } : {}) },
  });
}

/** The PAR endpoint a client of this auth method uses (the mTLS alias for tls_client_auth, where published). */
function parEndpointOf(meta: client.ServerMetadata, method: Profile['auth']['clientAuth']['method']): string | undefined {
  const alias = method === 'tls_client_auth' ? meta.mtls_endpoint_aliases?.pushed_authorization_request_endpoint : undefined;
  return alias ?? meta.pushed_authorization_request_endpoint;
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * openid-client's errors → the project's (the callers pass the result through the HttpClient's
 * redactor: the bank's words in it may echo a secret): an OAuth error body from the bank becomes
 * AuthorisationError(<the bank's error code>); a transport failure stays the HttpClient's HttpError;
 * a failed response check (bad id_token, wrong nonce, wrong issuer) becomes AuthorisationError
 * with a code of its own.
 */
export function mapError(error: unknown, doing: string): Error {
  if (error instanceof AuthorisationError || error instanceof HttpError || error instanceof ProfileError || error instanceof DiscoveryError) return error;
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof HttpError) return e;
  }
  // The bank's error code and description quoted (src/outside-text.ts): on this line, visibly its.
  if (error instanceof client.ResponseBodyError) {
    const desc = error.error_description ? `: ${quoteOutside(error.error_description)}` : '';
    return new AuthorisationError(error.error, `${doing}: the bank answered ${error.status} ${quoteOutside(error.error)}${desc}`, { cause: error });
  }
  if (error instanceof client.AuthorizationResponseError) {
    const desc = error.error_description ? `: ${quoteOutside(error.error_description)}` : '';
    return new AuthorisationError(error.error, `${doing}: the bank answered the authorisation with error=${quoteOutside(error.error)}${desc}`, { cause: error });
  }
  if (error instanceof client.WWWAuthenticateChallengeError) {
    const challenge = error.cause[0];
    const code = String(challenge?.parameters.error ?? 'invalid_client');
    const desc = challenge?.parameters.error_description ? `: ${quoteOutside(challenge.parameters.error_description)}` : '';
    return new AuthorisationError(code, `${doing}: the bank answered ${error.status} with a WWW-Authenticate challenge ${quoteOutside(code)}${desc}`, { cause: error });
  }
  const e = error as { code?: string; message?: string };
  const message = e?.message ?? String(error);
  const code = e?.code ?? '';
  if (/JWT|ID_TOKEN|CLAIM|SIGNATURE|JWS/i.test(code) || /id_token|"nonce"|JWT/i.test(message)) {
    return new AuthorisationError('invalid_id_token', `${doing}: the bank's id_token failed a check: ${message}`, { cause: error });
  }
  return new AuthorisationError('invalid_response', `${doing}: ${message}${code ? ` (${code})` : ''}`, { cause: error });
}
