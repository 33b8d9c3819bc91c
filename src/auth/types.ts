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
  /** Absent when the request carried no state of its own (a check that leaves it out): the answer must carry none. */
  state?: string;
  /** Absent when the request carried no nonce (FAPI 2.0 allows it): the ID token must carry none. */
  nonce?: string;
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
  /** How the parameters and the request object depart from obtpp's own (the OpenID Foundation's modules: SEC-16 …). */
  vary?: RequestVariation;
}

/**
 * One authorization request made deliberately different from obtpp's own, for the checks of the
 * OpenID Foundation's FAPI modules: each field names what is changed, everything else is obtpp's.
 */
export interface RequestVariation {
  /** Parameters left out (of the request object, or the pushed request, too). */
  omit?: string[];
  /** Parameters sent with other values (inside the request object too). */
  set?: Record<string, string>;
  /** Parameters left out of the request object or the pushed request and sent only on the authorization URL, with obtpp's value. */
  outsideOnly?: string[];
  /** Parameters added on the authorization URL only (outside the request object or the pushed request), with these values. */
  outside?: Record<string, string>;
  /** Claims of the request object given other values; `null` leaves a claim out (exp, nbf, aud …). */
  claims?: Record<string, unknown>;
  /**
   * How the request object is signed when not as the profile says: `none` (unsigned), `RS256` (the
   * client's key, an algorithm FAPI refuses), `unregistered-key` (a key the client never registered,
   * under its kid), `broken` (a signature that does not verify).
   */
  signature?: 'none' | 'RS256' | 'unregistered-key' | 'broken';
  /**
   * DPoP at the pushed authorization request: `proof` a DPoP proof of the run's key and no dpop_jkt,
   * `jkt` dpop_jkt of the run's key and no proof, `mismatch` a proof of a throwaway key and dpop_jkt
   * of the run's; default both, of the run's key.
   */
  dpopAtPar?: 'proof' | 'jkt' | 'mismatch';
  /** Claims asked for in the claims parameter besides obtpp's own (`{ id_token: { name: null } }`). */
  addClaims?: { id_token?: Record<string, unknown>; userinfo?: Record<string, unknown> };
  /** Parameters added to the pushed request's form, beside its request object (a request_uri the PAR endpoint must refuse). */
  pushed?: Record<string, string>;
  /** The pushed request's client assertion changed before it is signed (header, claims); `RS256` signs it with the client's key as RS256. */
  parAssertion?: { modify?: (header: Record<string, unknown>, payload: Record<string, unknown>) => void; alg?: 'RS256' };
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
