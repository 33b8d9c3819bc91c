/**
 * The sandbox's authorisation server: a real oidc-provider, configured the UK Open Banking way
 * (client credentials for consent endpoints, authorization code with PKCE bound to the consent's
 * `openbanking_intent_id`, refresh tokens), with private_key_jwt, signed request objects and, over
 * TLS, tls_client_auth with certificate-bound tokens.
 */
import { X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import Provider, { errors } from 'oidc-provider';
import type { ClientMetadata, Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { memoryAdapter } from './adapter.ts';
import type { Faults } from './faults.ts';
import { html, page } from './http.ts';
import { sameDn } from './keys.ts';
import type { RsaKey } from './keys.ts';
import type { Store } from './store.ts';

/** Lifetime of access tokens (client credentials and authorization code), in seconds. */
export const ACCESS_TOKEN_TTL = 300;

export interface AuthServerOptions {
  issuer: string;
  /** Resource indicators accepted; the first is the default audience of every access token. */
  resources: string[];
  clients: ClientMetadata[];
  signingKey: RsaKey;
  /** What the provider needs of the bank's state (the obie Store, or the berlin-group one). */
  store: Pick<Store, 'intentByGrant' | 'psu'>;
  /**
   * The resource scopes a token may carry, asked afresh at each authorisation and token request;
   * default the UK ones. The berlin-group bank names its consents here (`AIS:{consentId}`).
   */
  resourceScopes?: () => string;
  faults: Faults;
  tls: boolean;
  /** Collects every token and code issued. */
  issued?: Set<string>;
}

/** The consent an authorization-code grant was bound to, from the grant id of the current exchange. */
function intentOf(ctx: KoaContextWithOIDC, store: Pick<Store, 'intentByGrant'>, grantId?: string): string | undefined {
  const e = ctx.oidc.entities;
  const id = grantId ?? e.AuthorizationCode?.grantId ?? e.RefreshToken?.grantId ?? e.Grant?.jti;
  return id ? store.intentByGrant.get(id) : undefined;
}

function peerCertificate(ctx: KoaContextWithOIDC): X509Certificate | undefined {
  const socket = ctx.req.socket as TLSSocket;
  const raw = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate()?.raw : undefined;
  return raw ? new X509Certificate(raw) : undefined;
}

/** Builds the provider. Mount it with `provider.callback()` at the issuer's root. */
export function createAuthServer(o: AuthServerOptions): Provider {
  const { store, faults } = o;
  const configuration: Configuration = {
    adapter: memoryAdapter(o.issued),
    clients: o.clients,
    jwks: { keys: [{ ...o.signingKey.privateJwk, use: 'sig' } as never] },
    cookies: { keys: [crypto.randomUUID(), crypto.randomUUID()] },
    scopes: ['openid', 'offline_access', 'accounts', 'fundsconfirmations', 'payments'],
    claims: { openid: ['sub'], openbanking_intent_id: null },
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'private_key_jwt', ...(o.tls ? ['tls_client_auth' as const] : [])],
    pkce: { required: () => true },
    responseTypes: ['code'],
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Every authorisation is for one consent: never reuse an earlier grant of the session.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    // UK banks give the TPP a refresh token with every PSU authorisation; tokens outlive the browser session.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    ttl: { AccessToken: ACCESS_TOKEN_TTL, ClientCredentials: ACCESS_TOKEN_TTL, AuthorizationCode: 120, IdToken: 3600, Interaction: 1800, Session: 3600, Grant: 86_400, RefreshToken: 86_400 },
    findAccount: async (ctx, sub) => {
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
    },
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
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      claimsParameter: { enabled: true },
      requestObjects: { enabled: true },
      revocation: { enabled: true },
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
      mTLS: o.tls
        ? {
            enabled: true,
            tlsClientAuth: true,
            certificateBoundAccessTokens: true,
            getCertificate: (ctx) => peerCertificate(ctx),
            certificateAuthorized: (ctx) => (ctx.req.socket as TLSSocket).authorized === true,
            certificateSubjectMatches: (_ctx, property, expected) => {
              const cert = peerCertificate(_ctx);
              return property === 'tls_client_auth_subject_dn' && cert !== undefined && sameDn(cert.subject, expected);
            },
          }
        : { enabled: false },
    },
  };
  const provider = new Provider(o.issuer, configuration);
  // Errors are the client's business; the sandbox's terminal stays readable.
  provider.on('server_error', () => undefined);
  return provider;
}
