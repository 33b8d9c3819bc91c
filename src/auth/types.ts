/**
 * The authorisation server's data as the flows pass it around: what the token endpoint gave, an
 * authorisation under way, and how a request departs from obtpp's own. Apart from index.ts (the
 * Auth class) so that authorise.ts, which drives a journey with them, does not import it back.
 */
import type { Fn } from '../profile/types.ts';
import type { ResolvedSecurity } from './security.ts';

export interface TokenSet {
  accessToken: string;
  tokenType: string;
  refreshToken?: string;
  idToken?: string;
  /** Epoch ms, when the bank said `expires_in`. */
  expiresAt?: number;
  scope?: string;
  /** The id_token's claims (validated), when there was one. */
  claims?: Record<string, unknown>;
  /** The claims of the ID token the authorization endpoint returned (the hybrid flow's detached signature), validated before the code was used. */
  authorizationClaims?: Record<string, unknown>;
  /** How the token is bound to the TPP: its client certificate (mtls), the run's DPoP key (dpop), or not at all. */
  senderConstraint?: 'mtls' | 'dpop' | 'none';
  grant: 'client_credentials' | 'authorization_code' | 'refresh_token';
}

/** What `begin()` sent, kept until the PSU comes back; `finish()` checks the answer against it. */
export interface PendingAuthorisation {
  /** The authorization URL the PSU is sent to. */
  url: string;
  state: string;
  nonce: string;
  /** Absent only when the request was sent without PKCE on purpose (the SEC-13 check). */
  codeVerifier?: string;
  intentId: string;
  fn: Fn;
  redirectUri: string;
  /** What this request asked of the authorisation server (the resolved security profile, as varied for this request). */
  security?: ResolvedSecurity;
}

/** How an authorisation request carries PKCE: S256 (always, for obtpp's own), or the bad ones SEC-13 sends. */
export type PkceMethod = 'S256' | 'plain' | 'none';

/** How `begin()` departs from obtpp's own authorisation requests, for the conformance checks. */
export interface BeginOptions {
  /** `plain` sends the verifier as the challenge, `none` no code_challenge (and `finish` then no verifier). Default S256. */
  pkce?: PkceMethod;
  /** Push the request (true) or not (false) whatever the security profile says; default as `usesPar`. */
  par?: boolean;
  /**
   * Any other choice of the resolved security profile, varied for this one request (a check that
   * asks for what the bank must refuse: response_type=code of a FAPI 1.0 bank, a request object by
   * value of a FAPI 2.0 one …).
   */
  flow?: Partial<Pick<ResolvedSecurity, 'responseType' | 'responseMode' | 'requestObject' | 'acr'>>;
}

/** What a PSU journey needs of the authorisation server (the Auth class is one). */
export interface AuthorisationServer {
  /** The authorization request for the consent's intent id: PAR where the bank offers it, PKCE, state and nonce. */
  begin(intentId: string, fn: Fn, options?: BeginOptions): Promise<PendingAuthorisation>;
  /** The bank's redirect back, checked against the pending request, and the code exchanged. */
  finish(pending: PendingAuthorisation, callbackUrl: string): Promise<TokenSet>;
  /** The authorization response's parameters where the request's response mode puts them (query or fragment); default: the query. */
  readResponse?(callbackUrl: string, security?: PendingAuthorisation['security']): { params: URLSearchParams; base: string };
}
