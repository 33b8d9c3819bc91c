/**
 * What the sandbox bank is to its users: its options, the running sandbox, its clients and PSUs
 * (index.ts starts it).
 */
import type { ScaApproachName, Standard, Variant } from '../profile/types.ts';
import type { SandboxSecurityInfo, SandboxSecurityName } from './security.ts';

/** Options of startSandbox; every one has a default. */
export interface SandboxOptions {
  /** Port to bind; 0 (the default) lets the OS pick. */
  port?: number;
  /** Interface to bind; default 127.0.0.1. Anything else is reachable from the network. */
  host?: string;
  /** Serve HTTPS with a CA and certificates made at start, and offer tls_client_auth. Default false (true with the tls-host-mismatch fault). */
  tls?: boolean;
  /** Fault names to switch on (see listFaults); an unknown name throws UnknownFaultError. */
  faults?: string[];
  /** Print nothing (the library never prints; the CLI does). Kept for the contract; default true. */
  quiet?: boolean;
  /** Redirect URIs registered for every client in addition to `{issuer}/tpp/callback`. */
  redirectUris?: string[];
  /** The day fixture data is relative to; default today (UTC). */
  anchor?: Date;
  /** The bank's clock for consent dates and expiry, in ms; default Date.now (tests drive expiry with it). */
  clock?: () => number;
  /**
   * The standard the bank speaks, a registered standard with a sandbox bank: obie (UK Open
   * Banking v3.1, the default) or berlin-group (NextGenPSD2 XS2A 1.3.x under `/{A|B}/xs2a/v1/…`,
   * SCA by redirect or OAuth2). Each has its own faults: with berlin-group they are those of
   * `listBgFaults()` (berlin-group/faults.ts).
   */
  dialect?: string;
  /**
   * berlin-group only: the SCA approaches the bank offers (`redirect`, `oauth`, `decoupled`,
   * `embedded`), in the order its profile lists them; default redirect and oauth. Without oauth
   * the bank is one without an authorisation server: its profile has no auth block.
   */
  sca?: ScaApproachName[];
  /**
   * berlin-group only: the bank requires the NextGenPSD2 HTTP signature (Digest, Signature,
   * TPP-Signature-Certificate) on every request and signs its answers; its profile gives the TPP's
   * signing certificate and the bank's. Default false.
   */
  signatures?: boolean;
  /**
   * The security profile the authorisation server runs (`SANDBOX_SECURITY`: fapi1-advanced,
   * fapi1-advanced-par-jarm, fapi2-dpop, fapi2-mtls, fapi2-message-signing); the written profiles
   * say it in their `security` block and use the private_key_jwt client. An mTLS one serves TLS.
   * Default: the code flow with PKCE, PAR offered (no FAPI profile: the UK layouts' profiles then ask for code too).
   */
  security?: SandboxSecurityName;
}

/** A client registered at the sandbox's authorisation server. */
export interface SandboxClient {
  clientId: string;
  clientName: string;
  authMethod: 'client_secret_basic' | 'private_key_jwt' | 'tls_client_auth';
  clientSecret?: string;
  /** The client's signing key (private_key_jwt assertions and request objects), as a private JWK. */
  privateJwk?: Record<string, unknown> & { kid: string };
  /** The same key as a PKCS#8 PEM, as a profile's clientAuth.privateKey carries it. */
  privateKeyPem?: string;
  kid?: string;
  /** tls_client_auth: the client certificate and key. */
  certPem?: string;
  keyPem?: string;
  /** The default redirect URI (`{issuer}/tpp/callback`). */
  redirectUri: string;
  redirectUris: string[];
}

/** One of the sandbox's PSUs and their accounts. */
export interface SandboxPsu {
  username: string;
  password: string;
  name: string;
  accounts: Array<{ AccountId: string; Identification: string; SchemeName: string; Name: string; Currency: string; iban?: string }>;
}

/** A running sandbox bank. */
export interface Sandbox {
  issuer: string;
  /** The dialect the bank speaks. */
  dialect: string;
  /** The security profile its authorisation server runs, when one was asked for. */
  security?: SandboxSecurityInfo;
  /** berlin-group: the SCA approaches the bank offers, in its profile's order. */
  sca?: ScaApproachName[];
  /** berlin-group with `signatures`: the TPP's signing certificate the bank knows and the bank's own (PEM). */
  signatureCertificates?: { tpp: string; bank: string };
  baseUrls: Record<Variant, string>;
  clients: SandboxClient[];
  psus: SandboxPsu[];
  /** The TPP's message-signing key (x-jws-signature) the sandbox trusts, as a PKCS#8 PEM, and its kid. */
  tppSigning: { privateKeyPem: string; kid: string };
  /** The JWKS URL the bank's own x-jws-signature keys are in. */
  jwksUri: string;
  /** PEMs of the private PKI, with tls only. */
  tls?: { caPem: string; clientCertPem: string; clientKeyPem: string };
  /** The faults switched on (with berlin-group, names of `listBgFaults()`). */
  faults: string[];
  /** What the TPP needs to register itself (DCR): the directory's software statement and the key it names. */
  registration: { softwareStatement: string; keyPem: string; kid: string };
  /**
   * A raw profile object for this sandbox (what a profile file holds; give it to profileFromObject).
   * `variant` picks A, B or both ('all', the default), or uk-3.1: the same bank as UK Read/Write
   * v3.1.11 publishes it (under {issuer}/open-banking/v3.1), or uk-4.0 (under {issuer}/open-banking/v4.0); `clientIndex` picks the client (default 0,
   * the client_secret_basic one).
   */
  profile(variant?: Variant | 'all' | Standard, clientIndex?: number): Record<string, unknown>;
  /** Every access token, refresh token and authorization code issued so far (for secret scans). */
  issuedTokens(): string[];
  /**
   * berlin-group only: the PSU revokes a valid consent at the bank (online banking, out of the
   * TPP's sight): its status becomes revokedByPsu. False when there is no such valid consent.
   */
  psuRevoke(consentId: string): boolean;
  /** Closes the server and every open connection. */
  stop(): Promise<void>;
}

