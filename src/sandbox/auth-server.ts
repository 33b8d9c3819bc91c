/**
 * The sandbox's authorisation server: a real oidc-provider, configured the UK Open Banking way
 * (client credentials for consent endpoints, authorization code with PKCE bound to the consent's
 * `openbanking_intent_id`, refresh tokens), with private_key_jwt, signed request objects and, over
 * TLS, tls_client_auth with certificate-bound tokens.
 */
import { X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import Provider, { errors } from 'oidc-provider';
import { defaults } from 'oidc-provider/lib/helpers/defaults.js';
import type { ClientMetadata, Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { memoryAdapter } from './adapter.ts';
import { registrationGate } from './registration.ts';
import { ignoredRequestUri, unauthenticatedPar } from './par.ts';
import type { Faults } from './faults.ts';
import { html, page } from './http.ts';
import { sameDn } from './keys.ts';
import type { RsaKey } from './keys.ts';
import type { Store } from './store.ts';
import { SANDBOX_ACR, type SandboxSecurityInfo } from './security.ts';

/** Lifetime of access tokens (client credentials and authorization code), in seconds. */
export const ACCESS_TOKEN_TTL = 300;

export interface AuthServerOptions {
  issuer: string;
  /** Resource indicators accepted; the first is the default audience of every access token. */
  resources: string[];
  clients: ClientMetadata[];
  signingKey: RsaKey;
  /** What the provider needs of the bank's state (the obie Store, or the berlin-group one). */
  /** The bank's state: either dialect's store (the UK one's consents are what request objects name). */
  store: Pick<Store, 'intentByGrant' | 'psu'> & { consents: { get(id: string): object | undefined } };
  /**
   * The resource scopes a token may carry, asked afresh at each authorisation and token request;
   * default the UK ones. The berlin-group bank names its consents here (`AIS:{consentId}`).
   */
  resourceScopes?: () => string;
  faults: Faults;
  tls: boolean;
  /** Collects every token and code issued. */
  issued?: Set<string>;
  /** The secret the server's DPoP nonces are made with (32 bytes). */
  dpopNonceSecret: Buffer;
  /** The directory key whose software statements registration trusts (DCR). */
  directory: RsaKey;
  /** The security profile the server runs (security.ts); absent: the code flow with PKCE, PAR offered. */
  security?: SandboxSecurityInfo;
}


/** Whether an authorization request asks for the hybrid flow (the hybrid-id-token-without-s-hash fault bends those). */
function hybridAsked(ctx: KoaContextWithOIDC): boolean {
  const type = (ctx.oidc as { params?: { response_type?: unknown } } | undefined)?.params?.response_type;
  return typeof type === 'string' && type.includes('id_token');
}

/** The consent an authorization-code grant was bound to, from the grant id of the current exchange. */
function intentOf(ctx: KoaContextWithOIDC, store: Pick<Store, 'intentByGrant'>, grantId?: string): string | undefined {
  const e = ctx.oidc.entities;
  const id = grantId ?? e.AuthorizationCode?.grantId ?? e.RefreshToken?.grantId ?? e.Grant?.jti;
  return id ? store.intentByGrant.get(id) : undefined;
}

/** The openbanking_intent_id a request object's `claims` asks for, if any. */
function requestObjectIntent(claims: unknown): string | undefined {
  let c = claims;
  if (typeof c === 'string') {
    try {
      c = JSON.parse(c);
    } catch {
      return undefined;
    }
  }
  const x = c as { id_token?: Record<string, { value?: unknown }>; userinfo?: Record<string, { value?: unknown }> } | undefined;
  const value = x?.id_token?.openbanking_intent_id?.value ?? x?.userinfo?.openbanking_intent_id?.value;
  return typeof value === 'string' ? value : undefined;
}

/**
 * The request-object-none-accepted fault: an unsigned (`alg: none`) request object is taken at its
 * word, its parameters moved onto the query as if the TPP had sent them there.
 */
export function acceptUnsignedRequestObject(url: URL): URL | undefined {
  const request = url.searchParams.get('request');
  const [header, payload, signature] = request?.split('.') ?? [];
  if (!header || payload === undefined || signature !== '') return undefined;
  try {
    if (JSON.parse(Buffer.from(header, 'base64url').toString()).alg !== 'none') return undefined;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const out = new URL(url.href);
    out.searchParams.delete('request');
    for (const [k, v] of Object.entries(claims)) {
      if (['iss', 'aud', 'exp', 'iat', 'nbf', 'jti'].includes(k)) continue;
      out.searchParams.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    }
    return out;
  } catch {
    return undefined;
  }
}

function peerCertificate(ctx: KoaContextWithOIDC): X509Certificate | undefined {
  const socket = ctx.req.socket as TLSSocket;
  const raw = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate()?.raw : undefined;
  return raw ? new X509Certificate(raw) : undefined;
}

/** The authorization-response-iss-wrong fault: every redirect back to the TPP names another issuer in its iss (RFC 9207). */
async function wrongIssuer(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  await next();
  const location = ctx.response.get('location');
  if (!location || !/[?&#]iss=/.test(location)) return;
  const url = new URL(location);
  for (const part of [url.searchParams, new URLSearchParams(url.hash.slice(1))]) {
    if (!part.has('iss')) continue;
    part.set('iss', 'https://another-bank.invalid');
    if (part !== url.searchParams) url.hash = part.toString();
  }
  ctx.response.set('location', url.href);
}

/** The discovery-id-token-rs256 fault: the discovery document names RS256 alone for ID tokens. */
async function rs256Discovery(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  await next();
  if (ctx.path === '/.well-known/openid-configuration' && ctx.body && typeof ctx.body === 'object') {
    (ctx.body as Record<string, unknown>).id_token_signing_alg_values_supported = ['RS256'];
  }
}

/** Builds the provider. Mount it with `provider.callback()` at the issuer's root. */
export function createAuthServer(o: AuthServerOptions): Provider {
  const provider = new Provider(o.issuer, configurationOf(o));
  mountFrontFaults(provider, o);
  // Errors are the client's business; the sandbox's terminal stays readable.
  provider.on('server_error', () => undefined);
  return provider;
}

/** oidc-provider's configuration: the UK Open Banking way, bent by the faults the sandbox runs. */
function configurationOf(o: AuthServerOptions): Configuration {
  const { store, faults } = o;
  const sec = o.security;
  return {
    adapter: memoryAdapter(o.issued, { neverConsumed: new Set(faults.has('authorization-code-reusable') ? ['AuthorizationCode'] : []) }),
    // oidc-provider's own 15 s; the client-assertion-clock-lenient fault takes 15 minutes.
    ...(faults.has('client-assertion-clock-lenient') ? { clockTolerance: 900 } : {}),
    clients: o.clients,
    jwks: { keys: [{ ...o.signingKey.privateJwk, use: 'sig' } as never] },
    cookies: { keys: [crypto.randomUUID(), crypto.randomUUID()] },
    scopes: ['openid', 'offline_access', 'accounts', 'fundsconfirmations', 'payments'],
    claims: { openid: ['sub'], openbanking_intent_id: null },
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'private_key_jwt', ...(o.tls ? ['tls_client_auth' as const] : [])],
    // FAPI: PKCE with S256 on every authorisation request (pushed or not); the fault drops the requirement.
    pkce: { required: () => !faults.has('pkce-not-required') },
    responseTypes: sec ? [...sec.responseTypes] : ['code'],
    acrValues: [SANDBOX_ACR, 'urn:openbanking:psd2:ca'],
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Every authorisation is for one consent: never reuse an earlier grant of the session.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    // UK banks give the TPP a refresh token with every PSU authorisation; tokens outlive the browser session.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    // FAPI 2.0: authorization codes live at most 60 seconds.
    ttl: { AccessToken: ACCESS_TOKEN_TTL, ClientCredentials: ACCESS_TOKEN_TTL, AuthorizationCode: sec?.fapi === '2.0' ? 60 : 120, IdToken: 3600, Interaction: 1800, Session: 3600, Grant: 86_400, RefreshToken: 86_400 },
    findAccount: accountFinder(o),
    // Carries the consent into the access token, so the resource server knows which consent a token serves.
    extraTokenClaims: async (ctx, token) => {
      const grantId = (token as { grantId?: string }).grantId;
      const intent = grantId ? intentOf(ctx, store, grantId) : undefined;
      return intent ? { openbanking_intent_id: intent } : undefined;
    },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = page('Something went wrong', `<p class="error" data-testid="consent-error">${html(out.error)}: ${html(out.error_description ?? '')}</p>`);
    },
    extraClientMetadata: { properties: ['software_statement'] },
    features: featuresOf(o),
  };
}

/** The PSUs as accounts: a PSU the store knows, whose ID token echoes the consent its grant is bound to. */
function accountFinder(o: AuthServerOptions): NonNullable<Configuration['findAccount']> {
  const { store, faults } = o;
  return async (ctx, sub) => {
    if (!store.psu(sub)) return undefined;
    return {
      accountId: sub,
      claims: async (_use, _scope, claims) => {
        const out: Record<string, unknown> = { sub };
        // The ID token echoes the consent the grant is bound to (as asked for in the claims parameter).
        if (claims?.openbanking_intent_id !== undefined && !faults.has('intent-not-bound')) {
          const intent = intentOf(ctx, store);
          if (intent) out.openbanking_intent_id = intent;
        }
        return out as { sub: string };
      },
    };
  };
}

/** oidc-provider's features: FAPI in the set-up's profile, DPoP, request objects, PAR, DCR, resource indicators, mTLS. */
function featuresOf(o: AuthServerOptions): NonNullable<Configuration['features']> {
  const { faults } = o;
  const sec = o.security;
  // FAPI 1.0's detached signature carries s_hash; the fault serves the hybrid flow as plain OIDC does, without it.
  const fapiProfile = (ctx: KoaContextWithOIDC): '1.0 Final' | '2.0' | undefined => {
    if (faults.has('hybrid-id-token-without-s-hash') && hybridAsked(ctx)) return undefined;
    return sec?.fapi;
  };
  return {
    fapi: { enabled: true, profile: fapiProfile as never },
    jwtResponseModes: { enabled: sec?.jarm === true },
    // DPoP (RFC 9449): offered by every set-up; a DPoP one makes its clients' tokens DPoP-bound and demands a nonce.
    dPoP: { enabled: true, nonceSecret: o.dpopNonceSecret, requireNonce: () => sec?.senderConstraint === 'dpop' },
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    claimsParameter: { enabled: true },
    requestObjects: {
      enabled: true,
      // FAPI as UK banks enforce it: a request object expires, and names a consent awaiting this client.
      ...(sec?.signedRequestObject ? { requireSignedRequestObject: true } : {}),
      assertJwtClaimsAndHeader: requestObjectCheck(o),
    },
    // RFC 9126, as a FAPI bank may offer it (FAPI 1 Advanced: "may support"); the TPP uses it where
    // advertised. Not required: SEC-11 judges request objects sent to the authorization endpoint itself.
    pushedAuthorizationRequests: { enabled: sec?.par !== 'off', requirePushedAuthorizationRequests: sec?.par === 'required' },
    revocation: { enabled: true },
    // DCR (RFC 7591) and its management (RFC 7592); the software statement is checked in front (registration.ts).
    registration: { enabled: true, initialAccessToken: false },
    registrationManagement: { enabled: true, rotateRegistrationAccessToken: false },
    introspection: { enabled: true, allowedPolicy: async () => true },
    resourceIndicators: {
      enabled: true,
      defaultResource: async () => o.resources[0],
      useGrantedResource: async () => true,
      getResourceServerInfo: async (_ctx, indicator) => {
        if (!o.resources.includes(indicator)) throw new errors.InvalidTarget();
        return { scope: o.resourceScopes?.() ?? 'accounts fundsconfirmations payments', audience: o.resources[0], accessTokenTTL: ACCESS_TOKEN_TTL, accessTokenFormat: 'opaque' };
      },
    },
    mTLS: o.tls ? mtlsFeature() : { enabled: false },
  };
}

type RequestObjectsFeature = NonNullable<NonNullable<Configuration['features']>['requestObjects']>;

/** A request object's checks beyond its signature: it expires, carries its redirect URI, and names a consent awaiting this client. */
function requestObjectCheck(o: AuthServerOptions): NonNullable<RequestObjectsFeature['assertJwtClaimsAndHeader']> {
  const { store, faults } = o;
  const sec = o.security;
  return async (ctx, claims, header, client) => {
    // oidc-provider's own FAPI checks first (exp, nbf and aud required; exp at most 60 minutes after nbf).
    if (sec && !faults.has('request-object-nbf-not-required')) await defaults.features.requestObjects.assertJwtClaimsAndHeader(ctx, claims, header, client);
    if (claims.exp === undefined && !faults.has('request-object-exp-not-required')) throw new errors.InvalidRequestObject("Request Object is missing the 'exp' claim");
    // FAPI: the parameters are taken only from the request object, the redirect URI among them (one outside is not used).
    if (sec && claims.redirect_uri === undefined) throw new errors.InvalidRequestObject("Request Object is missing the 'redirect_uri' parameter");
    if (faults.has('intent-not-bound')) return;
    const intent = requestObjectIntent(claims.claims);
    if (intent === undefined) return;
    const consent = store.consents.get(intent) as { clientId?: string; decided?: boolean } | undefined;
    if (!consent || (consent.clientId !== client.clientId && !faults.has('intent-of-another-client-accepted')) || consent.decided) {
      throw new errors.InvalidRequestObject('openbanking_intent_id does not name a consent awaiting this client\'s authorisation');
    }
  };
}

/** mTLS over the sandbox's TLS: tls_client_auth by the certificate's subject, and certificate-bound tokens. */
function mtlsFeature(): NonNullable<NonNullable<Configuration['features']>['mTLS']> {
  return {
    enabled: true,
    tlsClientAuth: true,
    certificateBoundAccessTokens: true,
    getCertificate: (ctx) => peerCertificate(ctx),
    certificateAuthorized: (ctx) => (ctx.req.socket as TLSSocket).authorized === true,
    certificateSubjectMatches: (_ctx, property, expected) => {
      const cert = peerCertificate(_ctx);
      return property === 'tls_client_auth_subject_dn' && cert !== undefined && sameDn(cert.subject, expected);
    },
  };
}

/** The front of the provider: registration's gate, and the faults that bend a request or an answer around it. */
function mountFrontFaults(provider: Provider, o: AuthServerOptions): void {
  const { faults } = o;
  provider.use(registrationGate({ provider, issuer: o.issuer, directory: o.directory, faults }));
  if (faults.has('par-without-client-auth-accepted')) provider.use(unauthenticatedPar(provider));
  if (faults.has('authorization-response-iss-wrong')) provider.use(wrongIssuer);
  if (faults.has('discovery-id-token-rs256')) provider.use(rs256Discovery);
  if (faults.has('par-request-uri-in-form-ignored')) provider.use(ignoredRequestUri());
  if (faults.has('unregistered-redirect-uri-accepted')) provider.Client.prototype.redirectUriAllowed = () => true;
}
