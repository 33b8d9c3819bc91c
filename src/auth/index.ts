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
import { resolveSecurity, type ResolvedSecurity } from './security.ts';

import type { AuthorisationServer, BeginOptions, PendingAuthorisation, RequestVariation, TokenSet } from './types.ts';
import { quoteOutside } from '../outside-text.ts';

export { authorise } from './authorise.ts';
export type { AuthoriseContext, AuthoriseOptions, AuthoriseResult, WithJourney } from './authorise.ts';
export type { AuthorisationServer, BeginOptions, PendingAuthorisation, PkceMethod, RequestVariation, TokenSet } from './types.ts';
export { describeSecurity, FlowRefusedError, securitySummary, type ResolvedSecurity } from './security.ts';



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



/**
 * Discovery documents already fetched, per HTTP client (a lane of a conformance run, a session, a
 * library's client) and discovery URL, so that one discovers once. Not per process: a program that
 * runs many runs (a library caller, the test run's warm workers) may meet another bank at the same
 * URL (a loopback port the system gave again), whose keys and endpoints are not the first one's.
 */
const discovered = new WeakMap<HttpClient, Map<string, { metadata: client.ServerMetadata; at: number }>>();
const DISCOVERY_TTL_MS = 5 * 60_000;
/** The client id discovery runs under before `obtpp register` issued one (it never reaches the bank). */
const UNREGISTERED = 'obtpp-unregistered';
/** A cached client-credentials token is reused until this long before it expires. */
const EXPIRY_MARGIN_MS = 30_000;

export class Auth implements AuthorisationServer {
  readonly issuer: string;
  readonly authorizationEndpoint: string;
  readonly profile: Profile;
  /**
   * The security profile the bank's authorisation server runs, resolved from the profile and the
   * discovery (src/auth/security.ts): every flow step below reads its choices from here, or from the
   * pending request that varied them.
   */
  readonly security: ResolvedSecurity;
  private readonly config: client.Configuration;
  private readonly http: HttpClient;
  private readonly signingKey?: SigningKey;
  private readonly ccCache = new Map<Fn, Promise<TokenSet>>();
  /** Configurations that validate one kind of authorization response (hybrid, JARM), made once each. */
  private readonly flows = new Map<string, client.Configuration>();
  /** A configuration of this client (or, for the OIDF checks, another client id or client authentication) with obtpp's HTTP core. */
  readonly makeConfig: (extra?: (config: client.Configuration) => void, as?: { clientId?: string; clientAuth?: client.ClientAuth; http?: HttpClient }) => client.Configuration;
  private dpopHandle?: Promise<client.DPoPHandle>;

  private constructor(profile: Profile, http: HttpClient, config: client.Configuration, signingKey: SigningKey | undefined, security: ResolvedSecurity, makeConfig: Auth['makeConfig']) {
    this.profile = profile;
    this.http = http;
    this.config = config;
    this.signingKey = signingKey;
    this.security = security;
    this.makeConfig = makeConfig;
    const meta = config.serverMetadata();
    this.issuer = meta.issuer;
    if (!meta.authorization_endpoint) {
      throw new DiscoveryError(meta.issuer, `discovery: the bank's discovery document (${meta.issuer}) has no authorization_endpoint`);
    }
    this.authorizationEndpoint = meta.authorization_endpoint;
  }

  /**
   * Discovers the authorisation server (once per HTTP client and discovery URL) and sets up client
   * authentication as `profile.auth.clientAuth` says. `http` must be the profile's HttpClient
   * (with its mTLS certificate for tls_client_auth).
   */
  static async create(profile: Profile, http: HttpClient, options: { unregistered?: boolean } = {}): Promise<Auth> {
    const a = profile.auth;
    const { server, insecure, clientless } = serverOf(profile, options);
    for (const s of [a.clientAuth.secret, a.clientAuth.privateKey]) http.redactor.add(s);

    let signingKey: SigningKey | undefined;
    // The key also signs the request objects the conformance suite's FAPI checks send (SEC-11).
    if (a.clientAuth.method === 'private_key_jwt' || a.intentBinding.method === 'request-object' || a.clientAuth.privateKey) {
      signingKey = await importSigningKey(a.clientAuth);
    }
    const { clientAuth, metadata } = clientless ? { clientAuth: client.None(), metadata: {} } : clientAuthOf(a.clientAuth, signingKey);
    const setup: ClientSetup = { clientId: clientless ? UNREGISTERED : a.clientId, metadata, clientAuth, execute: insecure ? [client.allowInsecureRequests] : [] };
    const config = await discover(server, setup, http, a.clientAuth.method);
    const security = securityOf(profile, config, signingKey, clientless);
    const makeConfig = configMaker(config, security, setup, http, a.clientAuth.method);
    if (security.senderConstraint === 'dpop' && !http.dpop.made && security.dpopAlg) http.dpop.alg = security.dpopAlg;
    return new Auth(profile, http, makeConfig(), signingKey, security, makeConfig);
  }

  /** The DPoP handle (openid-client's) of the run's key, when the tokens are DPoP-bound. */
  private dpop(): Promise<client.DPoPHandle> | undefined {
    if (this.security.senderConstraint !== 'dpop') return undefined;
    this.dpopHandle ??= this.http.dpop.keyPair().then((pair) => client.getDPoPHandle(this.config, pair));
    return this.dpopHandle;
  }

  /** The `DPoP` option of openid-client's grant calls (none without DPoP). */
  private async dpopOption(): Promise<{ DPoP: client.DPoPHandle } | undefined> {
    const handle = this.dpop();
    return handle ? { DPoP: await handle } : undefined;
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
    const p = this.dpopOption()
      .then((dpop) => client.clientCredentialsGrant(this.config, params, dpop))
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

  /**
   * Whether the bank's token endpoint grants a client-credentials token to a request with a DPoP
   * proof (a throwaway key), for a set-up check that asked without one and was refused: a bank that
   * binds its tokens by DPoP refuses a request without a proof, often in words that do not say so.
   */
  async grantsWithDpop(fn: Fn): Promise<boolean> {
    const advertised = this.config.serverMetadata().dpop_signing_alg_values_supported;
    if (!Array.isArray(advertised) || !advertised.length) return false;
    try {
      const handle = client.getDPoPHandle(this.config, await client.randomDPoPKeyPair(advertised.includes('ES256') ? 'ES256' : advertised[0]));
      const params: Record<string, string> = { scope: this.profile.auth.scopes[fn] };
      if (this.profile.auth.resource) params.resource = this.profile.auth.resource;
      await client.clientCredentialsGrant(this.config, params, { DPoP: handle });
      return true;
    } catch {
      return false;
    }
  }

  /** Forgets cached client-credentials tokens (e.g. after the bank revoked one). */
  forgetClientCredentials(): void {
    this.ccCache.clear();
  }

  /**
   * Builds the authorization request for one consent, as the security profile says: state, nonce,
   * PKCE, the function's scope with `openid` (and `offline_access` when the profile asks), the intent
   * id bound as `profile.auth.intentBinding` says (and `acr` essential where asked), `resource` when
   * the profile has one, the response type and mode; in a signed request object where the profile
   * sends one, pushed (RFC 9126, with `dpop_jkt` and a DPoP proof where tokens are DPoP-bound)
   * where it pushes, so that the URL carries only the client id and the request_uri.
   *
   * `options` vary one request for the conformance suite's checks (SEC-12, SEC-13 …): see BeginOptions.
   */
  async begin(intentId: string, fn: Fn, options: BeginOptions = {}): Promise<PendingAuthorisation> {
    const security = this.securityFor(options);
    const vary = options.vary ?? {};
    const { params, state, nonce, codeVerifier } = await this.authorizationParams(intentId, fn, security);
    // A deliberate departure (the OIDF modules' checks): parameters left out, changed, or sent only outside.
    if (vary.addClaims) {
      const claims = params.claims ? JSON.parse(params.claims) as Record<string, Record<string, unknown>> : {};
      for (const [where, add] of Object.entries(vary.addClaims)) claims[where] = { ...(claims[where] ?? {}), ...add };
      params.claims = JSON.stringify(claims);
    }
    for (const k of vary.omit ?? []) delete params[k];
    Object.assign(params, vary.set ?? {});
    const outside: Record<string, string> = {};
    for (const k of vary.outsideOnly ?? []) {
      if (params[k] !== undefined) outside[k] = params[k]!;
      delete params[k];
    }
    Object.assign(outside, vary.outside ?? {});
    let url: URL;
    try {
      // RFC 9449 §10: the code is bound to the DPoP key from the pushed request on (inside the request object, where there is one).
      if (security.par && security.senderConstraint === 'dpop' && vary.dpopAtPar !== 'proof') params.dpop_jkt = await this.http.dpop.thumbprint();
      url = await this.authorizationUrl(params, security.requestObject, vary);
      if (security.par) url = await this.push(url.searchParams, vary);
    } catch (error) {
      throw this.http.redactor.error(mapError(error, security.par ? 'the pushed authorization request' : 'building the authorization request'));
    }
    for (const [k, v] of Object.entries(outside)) url.searchParams.set(k, v);
    // The answer is checked against what the request itself carried (its request object, or what was pushed).
    const sent = { state: params.state, nonce: params.nonce };
    return { url: url.href, ...(sent.state !== undefined ? { state: sent.state } : {}), ...(sent.nonce !== undefined ? { nonce: sent.nonce } : {}), ...(codeVerifier && params.code_challenge ? { codeVerifier } : {}), intentId, fn, redirectUri: params.redirect_uri ?? outside.redirect_uri ?? this.profile.auth.redirectUri, security };
  }

  /** The resolved security profile as one request varies it (BeginOptions). */
  securityFor(options: BeginOptions = {}): ResolvedSecurity {
    const s: ResolvedSecurity = { ...this.security, ...(options.flow ?? {}) };
    if (options.pkce !== undefined) s.pkce = options.pkce;
    if (options.par !== undefined) s.par = options.par;
    if (options.flow?.responseType && !options.flow.responseMode) {
      s.responseMode = options.flow.responseType === 'code id_token' ? 'fragment' : this.security.responseMode === 'fragment' ? 'query' : this.security.responseMode;
    }
    return s;
  }

  /**
   * Pushes the request's parameters (RFC 9126) and returns the URL the PSU is sent to; a variation
   * may change its DPoP proof or its client assertion (the OIDF modules' checks).
   */
  private async push(params: URLSearchParams, vary: RequestVariation = {}): Promise<URL> {
    let dpop = await this.dpopOption();
    if (dpop && vary.dpopAtPar === 'jkt') dpop = undefined;
    if (dpop && vary.dpopAtPar === 'mismatch') dpop = { DPoP: client.getDPoPHandle(this.config, await client.randomDPoPKeyPair(this.security.dpopAlg ?? 'ES256')) };
    const config = vary.parAssertion ? this.makeConfig(undefined, { clientAuth: await this.assertionAuth(vary.parAssertion) }) : this.config;
    for (const [k, v] of Object.entries(vary.pushed ?? {})) params.set(k, v);
    return client.buildAuthorizationUrlWithPAR(config, params, dpop);
  }

  /** private_key_jwt with a client assertion changed before it is signed (the OIDF modules' checks); `RS256` signs with the client's key as RS256. */
  async assertionAuth(o: { modify?: (header: Record<string, unknown>, payload: Record<string, unknown>) => void; alg?: 'RS256' }): Promise<client.ClientAuth> {
    const key = o.alg === 'RS256' ? await this.rs256Key() : this.signingKey?.key;
    if (!key) throw new ProfileError('$.auth.clientAuth.privateKey: a key to sign client assertions is needed for this check', ['$.auth.clientAuth.privateKey']);
    return client.PrivateKeyJwt({ key, ...(this.signingKey?.kid ? { kid: this.signingKey.kid } : {}) }, o.modify ? { [client.modifyAssertion]: o.modify } : {});
  }

  /** The client's own key imported for RS256 (an algorithm FAPI refuses): for checks only. */
  private async rs256Key(): Promise<CryptoKey> {
    return (await importSigningKey({ ...this.profile.auth.clientAuth, alg: 'RS256' })).key;
  }

  /**
   * The authorization URL of these parameters: in a signed request object where the profile sends
   * one, else on the query. A variation may change the request object's claims or how it is signed.
   */
  private async authorizationUrl(params: Record<string, string>, requestObject: boolean, vary: RequestVariation = {}): Promise<URL> {
    if (!requestObject) return client.buildAuthorizationUrl(this.config, params);
    if (!this.signingKey) throw new ProfileError('$.auth.clientAuth.privateKey: a key to sign the request object is needed', ['$.auth.clientAuth.privateKey']);
    const typ = this.profile.auth.intentBinding.requestObjectTyp;
    let made: { header: Record<string, unknown>; claims: Record<string, unknown> } | undefined;
    const modify: client.ModifyAssertionOptions = {
      [client.modifyAssertion]: (header: Record<string, unknown>, claims: Record<string, unknown>) => {
        if (typ) header.typ = typ;
        for (const [k, v] of Object.entries(vary.claims ?? {})) {
          if (v === null) delete claims[k];
          else claims[k] = v;
        }
        made = { header, claims };
      },
    };
    const signature = vary.signature;
    let key: CryptoKey = this.signingKey.key;
    if (signature === 'RS256') key = await this.rs256Key();
    if (signature === 'unregistered-key') {
      const { generateKeyPair } = await import('jose');
      key = (await generateKeyPair(this.signingKey.alg === 'ES256' ? 'ES256' : 'PS256')).privateKey;
    }
    const url = await client.buildAuthorizationUrlWithJAR(this.config, params, { key, kid: this.signingKey.kid }, modify);
    if (signature === 'none' || signature === 'broken') {
      const [h, p, sig] = url.searchParams.get('request')!.split('.');
      const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
      // Unsigned (alg none, the header otherwise as it was), or its signature's first bytes changed.
      const request = signature === 'none'
        ? `${part({ ...made!.header, alg: 'none', kid: undefined })}.${p}.`
        : `${h}.${p}.${(sig![0] === 'A' ? 'B' : 'A')}${sig!.slice(1)}`;
      url.searchParams.set('request', request);
    }
    return url;
  }

  /** The parameters of one authorisation request (before any request object or PAR). */
  private async authorizationParams(intentId: string, fn: Fn, security: ResolvedSecurity): Promise<{ params: Record<string, string>; state: string; nonce: string; codeVerifier?: string }> {
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
    const params: Record<string, string> = { redirect_uri: a.redirectUri, response_type: security.responseType, scope, state, nonce };
    // The hybrid flow answers in the fragment by default; a query answer (or JARM) is asked for by name.
    if (security.responseMode !== (security.responseType === 'code id_token' ? 'fragment' : 'query')) params.response_mode = security.responseMode;
    let codeVerifier: string | undefined;
    const pkce = security.pkce;
    if (pkce !== 'none') {
      codeVerifier = client.randomPKCECodeVerifier();
      this.http.redactor.add(codeVerifier);
      params.code_challenge = pkce === 'S256' ? await client.calculatePKCECodeChallenge(codeVerifier) : codeVerifier;
      params.code_challenge_method = pkce;
    }
    if (a.resource) params.resource = a.resource;
    const idToken: Record<string, unknown> = {};
    const userinfo: Record<string, unknown> = {};
    if (binding.method === 'claims' || binding.method === 'request-object') {
      const claim = { value: intentId, essential: true };
      idToken.openbanking_intent_id = claim;
      userinfo.openbanking_intent_id = claim;
    }
    if (security.acr) idToken.acr = { essential: true, values: security.acr };
    if (Object.keys(idToken).length) params.claims = JSON.stringify({ id_token: idToken, ...(Object.keys(userinfo).length ? { userinfo } : {}) });
    if (binding.method === 'query') params[binding.parameter ?? 'consent_id'] = intentId;
    return { params, state, nonce, ...(codeVerifier ? { codeVerifier } : {}) };
  }

  /** The bank's discovery document, as openid-client read it. */
  get serverMetadata(): client.ServerMetadata {
    return this.config.serverMetadata();
  }

  /** The bank's pushed authorization request endpoint (RFC 9126), when its discovery advertises one. */
  get parEndpoint(): string | undefined {
    return parEndpointOf(this.config.serverMetadata(), this.profile.auth.clientAuth.method);
  }

  /**
   * Whether obtpp pushes its authorization requests (PAR), as the security profile says (for
   * oauth2: `auth.par: auto`, the default, where the bank advertises a PAR endpoint; `always`; `never`).
   */
  get usesPar(): boolean {
    return this.security.par;
  }

  /** Whether the bank's discovery says it takes authorization requests only pushed (require_pushed_authorization_requests). */
  get requiresPar(): boolean {
    return this.config.serverMetadata().require_pushed_authorization_requests === true;
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
    const security = this.securityFor({ pkce: 'S256' });
    const { params } = await this.authorizationParams(intentId, fn, security);
    const body = (await this.authorizationUrl(params, security.requestObject)).searchParams.toString();
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
      // The registered client's tokens are bound as the security profile binds them (it registered so).
      return this.toTokenSet(await client.clientCredentialsGrant(config, { scope }, await this.dpopOption()), 'client_credentials');
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
    // The response type and mode of the security profile, so that only the defect differs from obtpp's own request.
    const security = this.security;
    const mode: Record<string, string> = security.responseMode !== (security.responseType === 'code id_token' ? 'fragment' : 'query') ? { response_mode: security.responseMode } : {};
    const params: Record<string, string> = {
      client_id: a.clientId,
      redirect_uri: a.redirectUri,
      response_type: security.responseType,
      ...mode,
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
    for (const [k, v] of Object.entries({ client_id: a.clientId, response_type: security.responseType, ...mode, scope: params.scope, redirect_uri: a.redirectUri, request })) url.searchParams.set(k, v);
    return { url: url.href, state };
  }

  /**
   * Turns the redirect back from the bank into tokens, each step as the request's security profile
   * says: {@link readResponse} takes the answer from the query, the fragment or a JARM `response`;
   * the state is checked first (a forged or mixed-up one → `state_mismatch`), then an `error=`
   * answer becomes AuthorisationError(<error>) (access_denied is the PSU's rejection); the hybrid
   * flow's ID token is validated as a detached signature (openid-client: PS256/ES256 against the
   * bank's JWKS, iss, aud, exp/iat, nonce, c_hash, s_hash) and its `acr` and
   * `openbanking_intent_id` checked, a JARM answer's signature, iss, aud and exp, the `iss`
   * parameter where the profile requires it (RFC 9207) — all before the code is used; then the
   * code is exchanged (PKCE verifier, DPoP proof where tokens are DPoP-bound) and the token
   * endpoint's ID token checked the same way. An absent `openbanking_intent_id` is for the
   * conformance suite to judge, not an error here; another consent's is.
   */
  async finish(pending: PendingAuthorisation, callbackUrl: string): Promise<TokenSet> {
    const security = pending.security ?? this.security;
    const { params, base } = this.readResponse(callbackUrl, security);
    const jarm = params.has('response');
    let frontClaims: Record<string, unknown> | undefined;
    if (jarm) await this.learnJarmCode(params);
    else frontClaims = await this.checkFrontChannel(params, pending, security);
    const kind = jarm ? 'jarm' : params.has('id_token') || security.responseType === 'code id_token' ? 'hybrid' : 'plain';
    const tokens = await this.exchangeCode(kind, params, base, pending);
    if (frontClaims) tokens.authorizationClaims = { ...frontClaims };
    if (tokens.claims) this.checkIdTokenClaims(tokens.claims, pending, security, 'the token endpoint\'s ID token');
    return tokens;
  }

  /** A JARM response's code, learnt for redaction before openid-client verifies the JWT; an encrypted one is refused as obtpp's limit. */
  private async learnJarmCode(params: URLSearchParams): Promise<void> {
    // An encrypted JARM response (a JWE: five parts) needs a decryption key obtpp does not take yet: obtpp's limit, not the bank's failure.
    if (params.get('response')!.split('.').length === 5) {
      throw new AuthorisationError('unsupported_response_mode', 'the bank encrypted its JARM response (a JWE), and obtpp does not decrypt JARM responses yet: ask the bank for signed-only JARM, or another response mode');
    }
    // Its code is learnt for redaction now; what the JWT says is believed only once openid-client verified it.
    const { decodeJwt } = await import('jose');
    try {
      const code = decodeJwt(params.get('response')!).code;
      if (typeof code === 'string') this.http.redactor.add(code);
    } catch {
      // openid-client refuses it below, in its own words
    }
  }

  /**
   * The plain or hybrid redirect's checks before its code is used: the state, an `error=` answer,
   * a code; the code and the front-channel ID token learnt for redaction, and that ID token's UK
   * claims checked. Returns the ID token's claims (unverified yet: openid-client verifies its signature).
   */
  private async checkFrontChannel(params: URLSearchParams, pending: PendingAuthorisation, security: ResolvedSecurity): Promise<Record<string, unknown> | undefined> {
    const state = params.get('state');
    if (pending.state === undefined ? state !== null : state !== pending.state) {
      throw new AuthorisationError(
        'state_mismatch',
        pending.state === undefined
          ? 'the redirect back from the bank carries a state, and the request sent none of its own (a state only outside its request object or pushed request must not be used)'
          : state === null
            ? 'the redirect back from the bank carries no state (possible forgery or a mixed-up session)'
            : 'the state in the redirect back from the bank is not the one sent (possible forgery or a mixed-up session)',
      );
    }
    const error = params.get('error');
    if (error) {
      const description = params.get('error_description');
      throw Object.assign(new AuthorisationError(error, `the bank answered the authorisation with error=${quoteOutside(error)}${description ? `: ${quoteOutside(description)}` : ''}`), { inResponse: true });
    }
    const code = params.get('code');
    if (!code) throw new AuthorisationError('invalid_response', 'the redirect back from the bank has neither a code nor an error');
    this.http.redactor.add(code);
    const idToken = params.get('id_token');
    if (!idToken) return undefined;
    this.http.redactor.add(idToken);
    const { decodeJwt } = await import('jose');
    let frontClaims: Record<string, unknown> | undefined;
    try {
      frontClaims = decodeJwt(idToken);
    } catch {
      frontClaims = undefined;
    }
    // Refused here before openid-client verifies the signature: a refusal never uses the code either.
    if (frontClaims) this.checkIdTokenClaims(frontClaims, pending, security, 'the authorization endpoint\'s ID token');
    return frontClaims;
  }

  /** The code exchanged at the token endpoint by openid-client, which validates the response of its kind first (the hybrid flow's detached signature, JARM). */
  private async exchangeCode(kind: 'jarm' | 'hybrid' | 'plain', params: URLSearchParams, base: string, pending: PendingAuthorisation): Promise<TokenSet> {
    const current = new URL(base);
    if (kind === 'hybrid') current.hash = params.toString();
    else current.search = params.toString();
    const tokenParams: Record<string, string> = {};
    if (this.profile.auth.resource) tokenParams.resource = this.profile.auth.resource;
    try {
      const res = await client.authorizationCodeGrant(
        this.flowConfig(kind),
        current,
        { pkceCodeVerifier: pending.codeVerifier, expectedState: pending.state, expectedNonce: pending.nonce, idTokenExpected: true },
        tokenParams,
        await this.dpopOption(),
      );
      return this.toTokenSet(res, 'authorization_code');
    } catch (e) {
      throw this.http.redactor.error(mapError(e, kind === 'plain' ? 'authorization code exchange' : `the authorization response (${kind === 'jarm' ? 'JARM' : 'the hybrid flow\'s detached signature'}) or the code exchange`));
    }
  }

  /**
   * The authorization response's parameters, from where the security profile says they come (the
   * fragment for the hybrid flow and `fragment.jwt`, else the query; an error in the other part when
   * that one is empty: a bank may refuse a request before it reads its response mode), and the
   * redirect URI they came to.
   */
  readResponse(callbackUrl: string, security: Pick<ResolvedSecurity, 'responseMode'> = this.security): { params: URLSearchParams; base: string } {
    let url: URL;
    try {
      url = new URL(callbackUrl);
    } catch {
      throw new AuthorisationError('invalid_response', 'the redirect back from the bank is not a URL');
    }
    const fragment = new URLSearchParams(url.hash.slice(1));
    const query = url.searchParams;
    const answers = (p: URLSearchParams) => ['code', 'error', 'response', 'state', 'id_token'].some((k) => p.has(k));
    const preferFragment = security.responseMode === 'fragment' || security.responseMode === 'fragment.jwt';
    const [asked, other] = preferFragment ? [fragment, query] : [query, fragment];
    // Only an error may come back in the other part (a bank refusing the request before it reads the mode); a code never.
    const params = !answers(asked) && other.has('error') && !other.has('code') ? other : asked;
    return { params: new URLSearchParams(params), base: `${url.origin}${url.pathname}` };
  }

  /** The UK claims of an ID token: one of the essential acr values asked for, and the consent this authorisation was for (when it names one). */
  private checkIdTokenClaims(claims: Record<string, unknown>, pending: PendingAuthorisation, security: ResolvedSecurity, which: string): void {
    if (security.acr && !(typeof claims.acr === 'string' && security.acr.includes(claims.acr))) {
      throw new AuthorisationError('invalid_id_token', `${which} carries acr ${claims.acr === undefined ? '(none)' : JSON.stringify(claims.acr)}, not one of ${security.acr.join(', ')} asked for as essential (security.acr): the code is not used`);
    }
    const intent = claims.openbanking_intent_id;
    if (intent !== undefined && intent !== pending.intentId) {
      throw new AuthorisationError('invalid_id_token', `${which} names consent ${JSON.stringify(intent)} in openbanking_intent_id, not ${pending.intentId}, the consent this authorisation was for: the code is not used`);
    }
  }

  /** The configuration that validates one kind of authorization response (openid-client's hybrid or JARM checks), made once. */
  private flowConfig(kind: 'hybrid' | 'jarm' | 'plain'): client.Configuration {
    if (kind === 'plain') return this.config;
    let c = this.flows.get(kind);
    if (!c) {
      c = this.makeConfig((cfg) => {
        if (kind === 'hybrid') {
          client.useCodeIdTokenResponseType(cfg);
          // FAPI 1.0 Advanced 5.2.2.1: the ID token is a detached signature over code and state (c_hash, s_hash).
          client.enableDetachedSignatureResponseChecks(cfg);
        } else client.useJwtResponseMode(cfg);
      });
      this.flows.set(kind, c);
    }
    return c;
  }

  /**
   * The authorization code of a redirect back, read where the request's response mode puts it (a
   * JARM response's claims decoded, not verified): for the checks that send it on purpose in a way
   * the bank must refuse. Undefined when the answer carries none.
   */
  async codeOf(pending: PendingAuthorisation, callbackUrl: string): Promise<string | undefined> {
    const { params } = this.readResponse(callbackUrl, pending.security ?? this.security);
    let code: unknown = params.get('code');
    if (params.has('response')) {
      const { decodeJwt } = await import('jose');
      try {
        code = decodeJwt(params.get('response')!).code;
      } catch {
        code = undefined;
      }
    }
    if (typeof code !== 'string' || !code) return undefined;
    this.http.redactor.add(code);
    return code;
  }

  /**
   * One token request for an authorization code, made deliberately different from obtpp's own (the
   * OpenID Foundation's modules: SEC-18 …): without a code_verifier or with another, with another
   * client's id or authentication, without a DPoP proof or with one of another key, without the TLS
   * client certificate. The token endpoint's answer, granted or refused; a transport failure throws.
   */
  async tryCodeExchange(code: string, pending: PendingAuthorisation, o: { verifier?: string | null; clientId?: string; clientAuth?: client.ClientAuth; dpop?: 'none' | 'other-key'; withoutCertificate?: boolean } = {}): Promise<TokenAttempt> {
    const params: Record<string, string> = { code, redirect_uri: pending.redirectUri };
    const verifier = o.verifier === undefined ? pending.codeVerifier : o.verifier ?? undefined;
    if (verifier) params.code_verifier = verifier;
    if (this.profile.auth.resource) params.resource = this.profile.auth.resource;
    return this.tryGrant('authorization_code', params, o);
  }

  /** A client-credentials request made deliberately different from obtpp's own (another client authentication, DPoP): the token endpoint's answer. */
  async tryClientCredentials(fn: Fn, o: { clientId?: string; clientAuth?: client.ClientAuth | 'none'; dpop?: 'none' | 'other-key' | client.DPoPHandle; withoutCertificate?: boolean } = {}): Promise<TokenAttempt> {
    const params: Record<string, string> = { scope: this.profile.auth.scopes[fn] };
    if (this.profile.auth.resource) params.resource = this.profile.auth.resource;
    return this.tryGrant('client_credentials', params, o);
  }

  /** One grant request as a check varies it: another client, no certificate, DPoP of another key or none. */
  private async tryGrant(grant: string, params: Record<string, string>, given: { clientId?: string; clientAuth?: client.ClientAuth | 'none'; dpop?: 'none' | 'other-key' | client.DPoPHandle; withoutCertificate?: boolean }): Promise<TokenAttempt> {
    // `none`: only the client_id, no client authentication at all.
    const o = { ...given, clientAuth: given.clientAuth === 'none' ? client.None() : given.clientAuth };
    let bare: HttpClient | undefined;
    try {
      if (o.withoutCertificate) {
        const { httpFromProfile } = await import('../client/factory.ts');
        bare = httpFromProfile({ ...this.profile, ...(this.profile.mtls ? { mtls: { ...this.profile.mtls, cert: undefined, key: undefined } } : {}) }, { redactor: this.http.redactor, dpop: this.http.dpop });
      }
      const config = o.clientId || o.clientAuth || bare ? this.makeConfig(undefined, { ...(o.clientId ? { clientId: o.clientId } : {}), ...(o.clientAuth ? { clientAuth: o.clientAuth } : {}), ...(bare ? { http: bare } : {}) }) : this.config;
      let dpop: { DPoP: client.DPoPHandle } | undefined;
      if (o.dpop === 'other-key') dpop = { DPoP: client.getDPoPHandle(config, await client.randomDPoPKeyPair(this.security.dpopAlg ?? 'ES256')) };
      else if (o.dpop && o.dpop !== 'none') dpop = { DPoP: o.dpop };
      else if (o.dpop !== 'none') dpop = await this.dpopOption();
      const res = await client.genericGrantRequest(config, grant, params, dpop);
      return { granted: true, tokens: this.toTokenSet(res, grant === 'authorization_code' ? 'authorization_code' : 'client_credentials') };
    } catch (error) {
      const refused = refusalOf(error);
      if (refused) return refused;
      throw this.http.redactor.error(mapError(error, `${grant === 'authorization_code' ? 'authorization code' : 'client credentials'} grant`));
    } finally {
      await bare?.close();
    }
  }

  /** A DPoP handle (openid-client's) of a key pair the check chose, with its proofs changed before they are signed. */
  dpopHandleOf(pair: CryptoKeyPair, modify?: (header: Record<string, unknown>, payload: Record<string, unknown>) => void): client.DPoPHandle {
    return client.getDPoPHandle(this.config, pair, modify ? { [client.modifyAssertion]: modify } : {});
  }

  /** A refresh-token grant; the new tokens replace the old ones (and are taught to redaction). */
  async refresh(refreshToken: string): Promise<TokenSet> {
    this.http.redactor.add(refreshToken);
    const params: Record<string, string> = {};
    if (this.profile.auth.resource) params.resource = this.profile.auth.resource;
    try {
      const res = await client.refreshTokenGrant(this.config, refreshToken, params, await this.dpopOption());
      return this.toTokenSet(res, 'refresh_token');
    } catch (error) {
      throw this.http.redactor.error(mapError(error, 'refresh token grant'));
    }
  }

  private toTokenSet(res: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers, grant: TokenSet['grant']): TokenSet {
    this.http.learnTokens(res);
    const expiresIn = res.expiresIn();
    const claims = res.claims();
    const dpop = res.token_type.toLowerCase() === 'dpop';
    const tokens: TokenSet = { accessToken: res.access_token, tokenType: dpop ? 'DPoP' : res.token_type, grant };
    tokens.senderConstraint = dpop ? 'dpop' : this.security.senderConstraint === 'mtls' ? 'mtls' : 'none';
    if (res.refresh_token) tokens.refreshToken = res.refresh_token;
    if (res.id_token) tokens.idToken = res.id_token;
    if (expiresIn !== undefined) tokens.expiresAt = Date.now() + expiresIn * 1000;
    if (typeof res.scope === 'string') tokens.scope = res.scope;
    if (claims) tokens.claims = { ...claims };
    return tokens;
  }
}

/** What a token endpoint answered a request made on purpose: the tokens it granted, or its refusal (status and OAuth error). */
export type TokenAttempt =
  | { granted: true; tokens: TokenSet }
  | { granted: false; status: number; error: string; description?: string };

/** An OAuth error answer of an endpoint (a JSON error body, or a 401 challenge) as a refusal; undefined for anything else. */
export function refusalOf(error: unknown): { granted: false; status: number; error: string; description?: string } | undefined {
  if (error instanceof client.ResponseBodyError) return { granted: false, status: error.status, error: error.error, ...(error.error_description ? { description: error.error_description } : {}) };
  if (error instanceof client.WWWAuthenticateChallengeError) {
    const p = error.cause[0]?.parameters;
    return { granted: false, status: error.status, error: String(p?.error ?? 'invalid_client'), ...(p?.error_description ? { description: String(p.error_description) } : {}) };
  }
  // A refusal without an OAuth error body (an HTML page, an empty 4xx): the status, and no error code.
  const e = error as { code?: string; cause?: unknown };
  if (e?.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' && e.cause instanceof Response && e.cause.status >= 400) return { granted: false, status: e.cause.status, error: '' };
  return undefined;
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

/** The client openid-client's configurations are made for: its id, metadata, authentication, and what runs on each (plain http for loopback). */
interface ClientSetup {
  clientId: string;
  metadata: Partial<client.ClientMetadata>;
  clientAuth: client.ClientAuth;
  execute: ((config: client.Configuration) => void)[];
}

/**
 * Where the profile's authorisation server is, checked before anything is sent: an auth block, a
 * client (or, with `unregistered`, discovery for registration only), an issuer or discovery URL,
 * and https unless on a loopback address or the profile allows it.
 */
function serverOf(profile: Profile, options: { unregistered?: boolean }): { server: URL; insecure: boolean; clientless: boolean } {
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
  return { server, insecure, clientless };
}

/** The client authentication the profile names, as openid-client sends it, and the client metadata it needs. */
function clientAuthOf(auth: Profile['auth']['clientAuth'], signingKey: SigningKey | undefined): { clientAuth: client.ClientAuth; metadata: Partial<client.ClientMetadata> } {
  const metadata: Partial<client.ClientMetadata> = {};
  switch (auth.method) {
    case 'client_secret_basic':
    case 'client_secret_post': {
      const secret = auth.secret;
      if (!secret) throw new ProfileError(`$.auth.clientAuth.secret: required for ${auth.method}`, ['$.auth.clientAuth.secret']);
      metadata.client_secret = secret;
      return { clientAuth: auth.method === 'client_secret_basic' ? client.ClientSecretBasic(secret) : client.ClientSecretPost(secret), metadata };
    }
    case 'private_key_jwt':
      return { clientAuth: client.PrivateKeyJwt({ key: signingKey!.key, kid: signingKey!.kid }), metadata };
    case 'tls_client_auth':
      return { clientAuth: client.TlsClientAuth(), metadata };
  }
}

/** A configuration's requests go through obtpp's HTTP core (mTLS, capture, redaction), with its timeout. */
function throughHttp(config: client.Configuration, http: HttpClient): void {
  config[client.customFetch] = http.fetch as unknown as client.CustomFetch;
  config.timeout = Math.ceil(http.timeoutMs / 1000);
}

/**
 * The client's configuration from the bank's discovery document: the HTTP client's cached one
 * (discovered once per client and discovery URL), or fetched through obtpp's HTTP core; with the bank's separate
 * mTLS endpoints where the client authenticates by certificate and the bank publishes them.
 */
async function discover(server: URL, setup: ClientSetup, http: HttpClient, method: Profile['auth']['clientAuth']['method']): Promise<client.Configuration> {
  const { clientId, metadata, clientAuth, execute } = setup;
  const key = server.href;
  let mine = discovered.get(http);
  if (!mine) discovered.set(http, (mine = new Map()));
  let cached = mine.get(key);
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
      mine.set(key, { metadata: { ...config.serverMetadata() }, at: Date.now() });
    }
  } catch (error) {
    throw http.redactor.error(mapError(error, 'discovery'));
  }
  throughHttp(config, http);
  // With mTLS client auth, a bank may publish separate mTLS endpoints; use them when it does.
  if (method === 'tls_client_auth' && config.serverMetadata().mtls_endpoint_aliases) {
    config = new client.Configuration({ ...config.serverMetadata() }, clientId, { ...metadata, use_mtls_endpoint_aliases: true }, clientAuth);
    for (const fn of execute) fn(config);
    throughHttp(config, http);
  }
  return config;
}

/**
 * The security profile the flows follow, resolved from the profile and the discovery; a profile
 * that demands PAR of a bank that offers none is refused first. Discovery for registration only
 * (no client yet) asks nothing of the bank but registration, so its security falls back to OAuth 2.
 */
function securityOf(profile: Profile, config: client.Configuration, signingKey: SigningKey | undefined, clientless: boolean): ResolvedSecurity {
  const a = profile.auth;
  const parEndpoint = parEndpointOf(config.serverMetadata(), a.clientAuth.method);
  if (a.par === 'always' && !parEndpoint && !profile.security) {
    throw new ProfileError(`$.auth.par: always, but the bank's discovery document (${config.serverMetadata().issuer}) advertises no pushed_authorization_request_endpoint`, ['$.auth.par'], {
      hint: 'set auth.par to auto (PAR where the bank offers it) or never',
    });
  }
  const context = { clientCertificate: !!(profile.mtls?.cert && profile.mtls?.key), canSign: signingKey !== undefined, ...(parEndpoint ? { parEndpoint } : {}) };
  try {
    return resolveSecurity(profile, config.serverMetadata(), context);
  } catch (error) {
    // Discovery for registration only (no client yet): nothing is asked of the bank but registration.
    if (!clientless) throw error;
    return resolveSecurity({ ...profile, security: { profile: 'oauth2' } }, config.serverMetadata(), { ...context, clientCertificate: false });
  }
}

/** What makes each of the client's configurations: the discovered metadata under the security profile's demands. */
function configMaker(config: client.Configuration, security: ResolvedSecurity, setup: ClientSetup, http: HttpClient, method: Profile['auth']['clientAuth']['method']): Auth['makeConfig'] {
  const { clientId, metadata, clientAuth, execute } = setup;
  // FAPI's algorithms only (8.6: PS256, ES256; FAPI 2.0 adds EdDSA) for the ID tokens and JARM
  // responses; and the iss response parameter required where the security profile asks for it,
  // whatever the discovery says (openid-client then refuses an answer without it).
  const meta: client.ServerMetadata = { ...(config.serverMetadata() as client.ServerMetadata), ...(security.issParameter ? { authorization_response_iss_parameter_supported: true } : {}) };
  const fapiMetadata = security.signingAlgs ? { id_token_signed_response_alg: security.signingAlgs, authorization_signed_response_alg: security.signingAlgs } as unknown as Partial<client.ClientMetadata> : {};
  const mtlsAliases = method === 'tls_client_auth' && meta.mtls_endpoint_aliases ? { use_mtls_endpoint_aliases: true } : {};
  return (extra, as = {}) => {
    const c = new client.Configuration({ ...meta }, as.clientId ?? clientId, { ...metadata, ...mtlsAliases, ...fapiMetadata }, as.clientAuth ?? clientAuth);
    for (const fn of execute) fn(c);
    throughHttp(c, as.http ?? http);
    extra?.(c);
    return c;
  };
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
    return Object.assign(new AuthorisationError(error.error, `${doing}: the bank answered the authorisation with error=${quoteOutside(error.error)}${desc}`, { cause: error }), { inResponse: true });
  }
  if (error instanceof client.WWWAuthenticateChallengeError) {
    const challenge = error.cause[0];
    const code = String(challenge?.parameters.error ?? 'invalid_client');
    const desc = challenge?.parameters.error_description ? `: ${quoteOutside(challenge.parameters.error_description)}` : '';
    return new AuthorisationError(code, `${doing}: the bank answered ${error.status} with a WWW-Authenticate challenge ${quoteOutside(code)}${desc}`, { cause: error });
  }
  const e = error as { code?: string; message?: string; cause?: { message?: unknown } };
  // openid-client words its errors generally ("invalid response encountered"); what failed is in the cause.
  const detail = typeof e?.cause?.message === 'string' && e.cause.message !== e.message ? e.cause.message : undefined;
  const message = `${e?.message ?? String(error)}${detail ? `: ${detail}` : ''}`;
  const code = e?.code ?? '';
  if (/"state" response parameter|response parameter "state"/.test(message)) {
    return new AuthorisationError('state_mismatch', `${doing}: the state in the redirect back from the bank is not the one sent (possible forgery or a mixed-up session): ${message}`, { cause: error });
  }
  if (/"iss" \(issuer\)/.test(message)) {
    return new AuthorisationError('invalid_response', `${doing}: the authorization response's iss (RFC 9207) ${/missing/.test(message) ? 'is missing' : 'is not the issuer obtpp asked'}: ${message} (the code is not used)`, { cause: error });
  }
  if (/JWT|ID_TOKEN|CLAIM|SIGNATURE|JWS/i.test(code) || /id_token|"nonce"|JWT/i.test(message)) {
    return new AuthorisationError('invalid_id_token', `${doing}: the bank's ${/JARM/.test(doing) && !/id_token|ID Token/i.test(message) ? 'JARM response' : 'id_token'} failed a check: ${message}`, { cause: error });
  }
  return new AuthorisationError('invalid_response', `${doing}: ${message}${code ? ` (${code})` : ''}`, { cause: error });
}
