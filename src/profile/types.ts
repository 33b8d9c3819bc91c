/** A bank deployment, as a profile file describes it (after `${env:…}` interpolation and defaults). */
export type Variant = 'A' | 'B';
export type Fn = 'ais' | 'cof' | 'pis';
export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'tls_client_auth';
export type IntentBindingMethod = 'claims' | 'request-object' | 'scope' | 'query';

/**
 * The security profiles of authorisation servers obtpp speaks (FACTS-security §1): FAPI 1.0
 * Advanced (the UK's hybrid flow, or `code` with JARM), FAPI 2.0 Security Profile, FAPI 2.0 with
 * Message Signing, and `oauth2`: the authorization code with PKCE, PAR where offered (obtpp's
 * historical flow, for banks that follow no FAPI profile).
 */
export const SECURITY_PROFILES = ['fapi1-advanced', 'fapi2', 'fapi2-message-signing', 'oauth2'] as const;
export type SecurityProfileName = (typeof SECURITY_PROFILES)[number];
/** Where the authorization response comes back: the query, the fragment, or a JWT (JARM) in either. */
export type ResponseMode = 'query' | 'fragment' | 'jwt' | 'query.jwt' | 'fragment.jwt';
/** How access tokens are bound to the TPP: its TLS client certificate (RFC 8705), a DPoP key (RFC 9449), or not at all. */
export type SenderConstraint = 'mtls' | 'dpop' | 'none';

/**
 * The profile's `security` block as written: the security profile the bank's authorisation server
 * runs, and per-field overrides of what it implies. A field left out is defaulted from the security
 * profile and the bank's discovery document (src/auth/security.ts resolves them).
 */
export interface SecuritySettings {
  profile?: SecurityProfileName;
  responseType?: 'code' | 'code id_token';
  responseMode?: ResponseMode;
  /** Push the authorization request (RFC 9126) rather than send it by value. */
  par?: boolean;
  /** Sign the authorization request's parameters into a request object (JAR, RFC 9101). */
  requestObject?: boolean;
  pkce?: 'S256' | 'none';
  senderConstraint?: SenderConstraint;
  /** Require the authorization response's `iss` (RFC 9207) and compare it with the issuer. */
  issParameter?: boolean;
  /** `acr` values asked for as an essential claim of the ID token (the UK's urn:openbanking:psd2:sca …). */
  acr?: string[];
  /** The DPoP proof's signing algorithm. */
  dpopAlg?: 'ES256' | 'PS256' | 'EdDSA';
}

/**
 * An operation of the tpp client, as a profile's `implements` names it: an id of a standard's
 * catalogue (src/dialects/catalogue.ts; the profile's schema lists them).
 */
export type OperationName = string;

/**
 * Which of the accounts offered on the bank's consent page the PSU ticks: by position ("the
 * first offered", "all offered", "the first n"), whatever the page calls them, or by name
 * (AccountId, identification, account name or label, as the driver's `by` compares).
 */
export type AccountChoice =
  | { pick: 'first' }
  | { pick: 'all' }
  | { pick: 'first-n'; n: number }
  | { ids: string[] };

/** Where one API (ais, cof or pis) is served, when it is not at the profile's baseUrl. */
export interface ApiLocation {
  baseUrl?: string;
  variantBaseUrls: Partial<Record<Variant, string>>;
}

export interface ProfilePaths {
  /** `/account-access-consents` (UK) or `/consents` (as the spec's endpoint table writes it). */
  accountAccessConsents: string;
  accounts: string;
  /** NextGenPSD2 card accounts (`/v1/card-accounts`); a UK profile has none. */
  cardAccounts?: string;
  /** Variant A's transaction-detail path; `{AccountId}` and `{resourceId}` are filled in. */
  transactionDetail: string;
  fundsConfirmationConsents: string;
  fundsConfirmations: string;
  /** The `{payment-product}` segment, e.g. `domestic-payments`. */
  paymentProduct: string;
  /** A path in front of `/{payment-product}` (e.g. `/pisp`); empty by default. */
  paymentsPrefix: string;
  /** Payment orders (POST submits, GET …/{DomesticPaymentId} reads); `{payment-product}` is filled in. Default `/{payment-product}`. */
  paymentOrders: string;
  /** Where a payment's status is read; `{payment-product}` and `{paymentId}` are filled in. Default `/{payment-product}/{paymentId}/status`. */
  paymentStatus: string;
}

/** x-jws-signature of the TPP's payment-initiation requests (UK v3.1 message signing). */
export interface SigningSettings {
  /** The private key (PKCS#8 PEM or private JWK as JSON), already read when the profile gave file:PATH. */
  key: string;
  kid: string;
  /** `http://openbanking.org.uk/iss`; default the client id. */
  issuer: string;
  /** `http://openbanking.org.uk/tan`; default openbanking.org.uk. */
  trustAnchor: string;
  /** False for a bank on a version without message signing. */
  enabled: boolean;
  /**
   * berlin-group: the PEM certificate of `key` (the TPP's QSealC): with it every request carries
   * the NextGenPSD2 HTTP signature (Digest, Signature, TPP-Signature-Certificate).
   */
  certificate?: string;
}

export interface ClientAuth {
  method: ClientAuthMethod;
  /** client_secret_basic / client_secret_post */
  secret?: string;
  /** private_key_jwt: a PEM (PKCS#8) or JWK JSON, inline or read from privateKeyFile */
  privateKey?: string;
  privateKeyFile?: string;
  kid?: string;
  /** JWS algorithm for client assertions and request objects; default PS256 */
  alg?: string;
}

export interface MtlsFiles {
  cert?: string;
  key?: string;
  ca?: string;
  certFile?: string;
  keyFile?: string;
  caFile?: string;
}

export interface IntentBinding {
  method: IntentBindingMethod;
  /** query: the parameter's name (e.g. consent_id). */
  parameter?: string;
  /** scope: a template, `{scope}:{intentId}` by default (e.g. accounts:1234). */
  scopeTemplate?: string;
  /** request-object: the JOSE `typ` of the request object (default oauth-authz-req+jwt). */
  requestObjectTyp?: string;
}

/** berlin-group: the SCA approaches the bank offers and what each needs from the TPP. */
export interface ScaSettings {
  /** In the TPP's order of preference. */
  approaches: ScaApproachName[];
  /** decoupled: the PSU's approval page, `{authorisationId}` filled in. */
  decoupledUrl?: string;
  /** decoupled: what the approval page shows once the PSU has decided (a CSS selector). */
  decoupledDoneSelector?: string;
  /** embedded: the PSU's one-time password (a secret). */
  otp?: string;
  /** embedded: the SCA method chosen when several are offered; default the first. */
  authenticationMethodId?: string;
  /**
   * Multilevel SCA: an account of the PSU whose payments need a second PSU's SCA, and that PSU (its
   * password a secret); `cancellation`: cancelling a scheduled payment from it needs both PSUs' SCA too.
   */
  multilevel?: { iban: string; psu: { username: string; password: string }; cancellation?: boolean };
}

export type ScaApproachName = 'redirect' | 'oauth' | 'decoupled' | 'embedded';

export interface AuthSettings {
  /**
   * True when the profile has no auth block: the bank runs no authorisation server (a berlin-group
   * bank whose SCA is redirect, decoupled or embedded, the TPP known by its eIDAS certificate on
   * mTLS or its TPP headers). Nothing is discovered; `redirectUri` is `sca.redirectUri`.
   */
  absent?: true;
  /** The issuer; discovery is `${issuer}/.well-known/openid-configuration` unless discoveryUrl is set. */
  issuer?: string;
  discoveryUrl?: string;
  /** The client obtpp is at the bank; '' until the session fills in the registered one (clientFrom). */
  clientId: string;
  clientAuth: ClientAuth;
  /**
   * A second client of the same TPP at the bank, for the checks of the OpenID Foundation's modules
   * that need another client (another client's code, request_uri or consent); its own key.
   */
  secondClient?: { clientId: string; clientAuth: ClientAuth; redirectUri?: string };
  /**
   * `registration`: the profile gives no client of its own; the session uses the one `obtpp register`
   * issued (its id and secret from the session state; the registration key for private_key_jwt).
   * Absent: the profile's client, which takes precedence over any registered one.
   */
  clientFrom?: 'registration';
  redirectUri: string;
  scopes: Record<Fn, string>;
  intentBinding: IntentBinding;
  /** RFC 8707 resource indicator sent with token requests, when the bank wants one. */
  resource?: string;
  /** Ask for offline_access (a refresh token). Default true. */
  offlineAccess: boolean;
  /**
   * Pushed authorization requests (RFC 9126): `auto` (default) where the bank's discovery advertises
   * a PAR endpoint, `always` (a bank without one is a profile error), `never` (plain authorization URL).
   */
  par: 'auto' | 'always' | 'never';
  /**
   * What the bank says of PKCE, for the SEC-13 check: `required` (the bank documents that it requires
   * PKCE: a request without is judged at MUST level), `optional` (it does not: not judged unless it
   * offers PAR, where FAPI requires PKCE); absent: judged on what its discovery advertises.
   */
  pkce?: 'required' | 'optional';
}

export type DriverStep =
  | { action: 'goto'; url: string; optional?: boolean; name?: string }
  | { action: 'fill'; selector: string; value: string; optional?: boolean; name?: string }
  | { action: 'click'; selector: string; waitForNavigation?: boolean; optional?: boolean; name?: string }
  | { action: 'select'; selector: string; value: string; optional?: boolean; name?: string }
  | { action: 'tickAccounts'; selector: string; by?: 'value' | 'label' | 'index'; optional?: boolean; name?: string }
  | { action: 'chooseDebtor'; selector: string; by?: 'value' | 'label' | 'index'; optional?: boolean; name?: string }
  | { action: 'waitFor'; selector: string; optional?: boolean; name?: string }
  | { action: 'waitForUrl'; pattern: string; optional?: boolean; name?: string }
  | { action: 'approve'; selector: string; optional?: boolean; name?: string }
  | { action: 'reject'; selector: string; optional?: boolean; name?: string }
  | { action: 'decide'; approve: string; reject: string; optional?: boolean; name?: string };

export type PsuDriver =
  | { kind: 'sandbox' }
  | { kind: 'manual'; callbackPort?: number }
  | { kind: 'steps'; steps: DriverStep[]; loginError?: string; consentError?: string };

export interface PsuSettings {
  username: string;
  password: string;
  driver: PsuDriver;
  /** Accounts to tick when a journey does not say (the CLI's consent authorise); all offered when absent. */
  accounts?: AccountChoice;
}

/** Dynamic client registration (OBIE DCR 3.3 / RFC 7591), as the profile's `registration` block gives it. */
export interface RegistrationSettings {
  /** The software statement assertion (a JWT signed by the directory). */
  softwareStatement: string;
  /** The private key (PEM or JWK) that signs the registration request JWT; none: the request is sent unsigned (JSON). */
  key?: string;
  kid?: string;
  alg: string;
  /** The registration endpoint; default the discovery document's registration_endpoint. */
  endpoint?: string;
  tokenEndpointAuthMethod: ClientAuthMethod;
  redirectUris: string[];
  scope: string;
}

/**
 * A published version of a standard that a profile names (`standard: uk-3.1`): one of the
 * registry's versions (src/standards/registry.ts `versionNames()`; the profile's schema lists them).
 */
export type Standard = string;

export interface Profile {
  name: string;
  /** The standard the bank speaks: a registered standard's name (src/standards/registry.ts). */
  dialect: string;
  /**
   * obie: the published standard the bank serves at its official paths (uk-3.1: UK Read/Write
   * v3.1.11; uk-4.0: UK Read/Write v4.0, the ISO 20022 code values); absent: the spec's layout (variants A and B). Operations a standard lacks are not
   * applicable; scenarios tagged with a standard (`@uk-3.1`) run only for it.
   */
  standard?: Standard;
  /** How the bank's authorisation server wants to be asked (absent: defaulted from the standard and discovery). */
  security?: SecuritySettings;
  /** berlin-group: the SCA approaches the bank offers, in the TPP's order of preference. */
  sca?: ScaSettings;
  /** berlin-group: the PSU-IP-Address sent on consent and payment creation. */
  psuIpAddress?: string;
  /** berlin-group: the delta reports the bank offers on an account's transactions (BG-53, BG-54), and whether on card accounts' too (`cards`); absent: none. */
  deltaReports?: { entryReferenceFrom: boolean; deltaList: boolean; cards: boolean };
  /** berlin-group: the payment products the bank offers, JSON and pain.001 (default: paths.paymentProduct alone). */
  paymentProducts?: string[];
  variants: Variant[];
  /** The resource base URL; when the profile gives only per-API URLs, the AIS one. */
  baseUrl: string;
  /** Per-variant resource base URLs, when the variants live apart. */
  variantBaseUrls: Partial<Record<Variant, string>>;
  /** Per-API base URLs (UK banks serve /aisp, /cbpii and /pisp, often on different hosts). */
  apis: Partial<Record<Fn, ApiLocation>>;
  /**
   * The bank's discovery document, when the profile names one: where it was read, and what in it
   * obtpp does not use (endpoints it does not know, other APIs or versions), one line each.
   */
  discovery?: { source: string; notes: string[] };
  /** The operations the bank offers, per variant; absent: every operation of the variant. */
  implements?: Partial<Record<Variant, OperationName[]>>;
  /** APIs the profile gives no base URL (`apis` without `cof`, say): the bank does not offer them. */
  absentApis?: Fn[];
  paths: ProfilePaths;
  auth: AuthSettings;
  /** Message signing; absent: requests go unsigned and the signature rules are not applicable. */
  signing?: SigningSettings;
  /** The bank's own keys: `jwks` is the URL or the read JWKS document its signatures verify against. */
  bank: {
    jwks?: string | { keys: Record<string, unknown>[] };
    /** False: the bank does not sign its answers, under the waiver `signingWaiver` names (SEC-09 not applicable). */
    signsAnswers?: boolean;
    signingWaiver?: string;
    /** berlin-group: the bank refuses requests without the NextGenPSD2 HTTP signature (BG-50 judges it). */
    requiresSignedRequests?: boolean;
    /** berlin-group: the PEM certificate the bank signs its answers with (Digest, Signature): given, its answers are verified (BG-51). */
    signingCertificate?: string;
  };
  psu: PsuSettings;
  /** Extra headers sent on every API call (never on the authorisation server). */
  headers: Record<string, string>;
  mtls?: MtlsFiles;
  registration?: RegistrationSettings;
  tls: { insecure: boolean };
  timeouts: { requestMs: number; browserStepMs: number; authorisationMs: number };
  limits: { maxBodyBytes: number };
  /** The TPP's name as the bank shows it on the consent page, if the bank shows one. */
  tppName?: string;
  /** Where the profile came from (a file path, `builtin:NAME`, or `sandbox`). */
  source: string;
  /** The secrets this profile carries, so that capture can redact them wherever they appear. */
  secrets: string[];
}
