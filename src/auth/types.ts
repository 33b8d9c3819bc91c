/**
 * The authorisation server's data as the flows pass it around: what the token endpoint gave, an
 * authorisation under way, and how a request departs from obtpp's own. Apart from index.ts (the
 * Auth class) so that authorise.ts, which drives a journey with them, does not import it back.
 */
import type { Fn } from '../profile/types.ts';

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
}

/** How an authorisation request carries PKCE: S256 (always, for obtpp's own), or the bad ones SEC-13 sends. */
export type PkceMethod = 'S256' | 'plain' | 'none';

/** How `begin()` departs from obtpp's own authorisation requests, for the conformance checks. */
export interface BeginOptions {
  /** `plain` sends the verifier as the challenge, `none` no code_challenge (and `finish` then no verifier). Default S256. */
  pkce?: PkceMethod;
  /** Push the request (true) or not (false) whatever `auth.par` says; default as `usesPar`. */
  par?: boolean;
}

/** What a PSU journey needs of the authorisation server (the Auth class is one). */
export interface AuthorisationServer {
  /** The authorization request for the consent's intent id: PAR where the bank offers it, PKCE, state and nonce. */
  begin(intentId: string, fn: Fn, options?: BeginOptions): Promise<PendingAuthorisation>;
  /** The bank's redirect back, checked against the pending request, and the code exchanged. */
  finish(pending: PendingAuthorisation, callbackUrl: string): Promise<TokenSet>;
}
