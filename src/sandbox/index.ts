/**
 * The embedded sandbox bank: a reference ASPSP for variants A and B on one loopback HTTP(S) server.
 * The authorisation server (oidc-provider) is the issuer at the root, the PSU's pages live under
 * /interaction, and the resource server under /A/open-banking/v3.1 and /B/open-banking/v3.1.
 * Faults (see faults.ts) each break one rule, so that the harness can prove it catches it.
 *
 * It is a sandbox, not a bank: fresh keys, in-memory state, published PSU passwords.
 */
import { createPrivateKey, randomBytes } from 'node:crypto';
import { UsageError } from '../errors.ts';
import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ClientMetadata } from 'oidc-provider';
import { acceptUnsignedRequestObject, createAuthServer } from './auth-server.ts';
import { parseBgFaults, type BgFaultName } from './berlin-group/faults.ts';
import { MISMATCHED_NAME, parseFaults, SANDBOX_MAX_BODY_BYTES, SANDBOX_TIMEOUTS } from './faults.ts';
import type { FaultName } from './faults.ts';
import { anchorDay, buildFixtures } from './fixtures.ts';
import { html, page, sendHtml } from './http.ts';
import { rsaKey, selfSignedCertificate, tlsMaterial } from './keys.ts';
import type { RsaKey, TlsMaterial } from './keys.ts';
import { handleInteraction } from './pages.ts';
import { issueSoftwareStatement } from './registration.ts';
import { createResourceServer } from './obie/index.ts';
import type { Standard, Variant } from '../profile/types.ts';
import { Store } from './store.ts';
import { BgStore, createBerlinGroupBank, ibanOf, SANDBOX_OTP, XS2A_PATH, type ScaApproach } from './berlin-group/index.ts';
import { sandboxSecurity, type SandboxSecurityInfo, type SandboxSecurityName } from './security.ts';
import { dpopVerifier } from './dpop.ts';
import type { ScaApproachName } from '../profile/types.ts';

export { listFaults, parseFaults, UnknownFaultError, SANDBOX_MAX_BODY_BYTES, SANDBOX_TIMEOUTS } from './faults.ts';
export { SANDBOX_SECURITY, sandboxSecurity, type SandboxSecurityInfo, type SandboxSecurityName } from './security.ts';
export type { ChaosFaultName, FaultInfo, FaultName } from './faults.ts';
export type { Variant } from '../profile/types.ts';

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
   * The standard the bank speaks: `obie` (UK Open Banking v3.1, the default) or `berlin-group`
   * (NextGenPSD2 XS2A 1.3.x under `/{A|B}/xs2a/v1/…`, SCA by redirect or OAuth2). Each has its
   * own faults: with berlin-group they are those of `listBgFaults()` (berlin-group/faults.ts).
   */
  dialect?: 'obie' | 'berlin-group';
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
  dialect: 'obie' | 'berlin-group';
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
  faults: Array<FaultName | BgFaultName>;
  /** What the TPP needs to register itself (DCR): the directory's software statement and the key it names. */
  registration: { softwareStatement: string; keyPem: string; kid: string };
  /**
   * A raw profile object for this sandbox (what a profile file holds; give it to profileFromObject).
   * `variant` picks A, B or both ('all', the default), or `uk-3.1`: the same bank as UK Read/Write
   * v3.1.11 publishes it (under {issuer}/open-banking/v3.1), or `uk-4.0` (under {issuer}/open-banking/v4.0); `clientIndex` picks the client (default 0,
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

const API = 'open-banking/v3.1';
/** The client id of a FAPI set-up's second private_key_jwt client. */
const SECOND_CLIENT = 'obtpp-sandbox-jwt-2';
/** UK Read/Write v4.0's base: the same bank, the same paths, v4.0's code values (obie/v4.ts). */
const API_V4 = 'open-banking/v4.0';
/** The NextGenPSD2 card-account reads the berlin-group sandbox offers in both variants. */
const CARD_OPERATIONS = ['listCardAccounts', 'getCardAccount', 'getCardBalances', 'getCardTransactions'];

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * RSA keys made once per process and role: the directory's, which signs the software statements
 * (one directory for every bank, as there is one Open Banking Directory), the authorisation
 * server's signing key and the TPP client's key. Each costs tens of milliseconds of CPU to make,
 * and a program that starts many sandboxes (the harness's fault runs) would spend seconds on them;
 * each sandbox is still its own bank (its own issuer, store and clients).
 */
const processKeys = new Map<'directory' | 'signing' | 'client' | 'second-client', Promise<RsaKey>>();
function processKey(role: 'directory' | 'signing' | 'client' | 'second-client'): Promise<RsaKey> {
  let key = processKeys.get(role);
  if (!key) {
    processKeys.set(role, (key = rsaKey()));
    key.catch(() => processKeys.delete(role));
  }
  return key;
}

/** The certificates of the TPP's and the bank's signing keys (made once per process, like the keys). */
let signatureCerts: Promise<{ tpp: string; bank: string }> | undefined;
function signatureCertificates(): Promise<{ tpp: string; bank: string }> {
  signatureCerts ??= Promise.all([processKey('client'), processKey('signing')]).then(([client, bank]) => Promise.all([
    selfSignedCertificate(client.privatePem, '/C=DE/O=obtpp sandbox TPP/CN=obtpp reference TPP seal'),
    selfSignedCertificate(bank.privatePem, '/C=DE/O=obtpp sandbox bank/CN=obtpp sandbox bank seal'),
  ])).then(([tpp, bank]) => ({ tpp, bank }));
  signatureCerts.catch(() => (signatureCerts = undefined));
  return signatureCerts;
}

/** Starts the sandbox bank and resolves once it is listening. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const dialect = options.dialect ?? 'obie';
  if (dialect !== 'obie' && dialect !== 'berlin-group') throw new UsageError(`unknown sandbox dialect ${JSON.stringify(dialect)}: obie or berlin-group`);
  // Each dialect's bank has its own faults (the berlin-group ones in berlin-group/faults.ts).
  const bgFaults = dialect === 'berlin-group' ? parseBgFaults(options.faults) : undefined;
  const sca = dialect === 'berlin-group' ? parseSca(options.sca) : undefined;
  const faults = parseFaults(bgFaults ? [] : options.faults);
  const sec = sandboxSecurity(options.security);
  const host = options.host ?? '127.0.0.1';
  // tls-host-mismatch is about the certificate: it brings TLS with it; so do tokens bound to a client certificate.
  const mismatch = faults.has('tls-host-mismatch');
  const useTls = (options.tls ?? false) || mismatch || sec?.senderConstraint === 'mtls';
  const [signingKey, clientKey, strayKey, directorySigner, pki, secondKey] = await Promise.all([
    // The stray key serves only its fault: each RSA key costs tens of milliseconds of CPU per start.
    processKey('signing'), processKey('client'), faults.has('bad-response-signature') ? rsaKey() : undefined, processKey('directory'),
    useTls ? tlsMaterial(host, mismatch ? { serverNames: [`DNS:${MISMATCHED_NAME}`] } : {}) : Promise.resolve(undefined),
    // A FAPI set-up has a second private_key_jwt client with a key of its own (the OIDF checks that need another client).
    sec ? processKey('second-client') : Promise.resolve(undefined),
  ]);
  const fixtures = buildFixtures(anchorDay(options.anchor ?? (options.clock ? new Date(options.clock()) : undefined)));
  const store = new Store(fixtures, options.clock);
  const bgStore = dialect === 'berlin-group' ? new BgStore(fixtures, options.clock) : undefined;

  // The provider needs the issuer, which needs the port: listen first, then build the handlers.
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.writeHead(503).end();
  };
  const listener = (req: IncomingMessage, res: ServerResponse) => handler(req, res);
  const server: Server = pki
    ? createHttpsServer({ key: pki.serverKeyPem, cert: pki.serverCertPem, ca: pki.caPem, requestCert: true, rejectUnauthorized: false }, listener)
    : createHttpServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const issuer = `${pki ? 'https' : 'http'}://${urlHost(host)}:${port}`;
  const baseUrls: Record<Variant, string> = bgStore
    ? { A: `${issuer}/A/${XS2A_PATH}`, B: `${issuer}/B/${XS2A_PATH}` }
    : { A: `${issuer}/A/${API}`, B: `${issuer}/B/${API}` };
  const audience = `${issuer}/${API}`;
  const callback = `${issuer}/tpp/callback`;
  const redirectUris = [callback, ...(options.redirectUris ?? [])];

  const clients = makeClients(redirectUris, clientKey, pki, sec, faults, secondKey);
  const issued = new Set<string>();
  const provider = createAuthServer({
    issued, security: sec, dpopNonceSecret: randomBytes(32),
    issuer, resources: [audience, baseUrls.A, baseUrls.B], signingKey, store: bgStore ?? store, faults, tls: useTls, directory: directorySigner,
    clients: clients.map((c) => c.metadata),
    ...(bgStore ? { resourceScopes: () => bgStore.scopes() } : {}),
  });
  if (options.signatures && dialect !== 'berlin-group') throw new UsageError('signatures (the NextGenPSD2 HTTP signature) is for the berlin-group bank');
  const certs = options.signatures ? await signatureCertificates() : undefined;
  const bg = bgStore ? createBerlinGroupBank({
    provider, store: bgStore, issuer, baseUrls, faults: bgFaults ?? new Set(), approaches: new Set(sca!.map((a) => a.toUpperCase() as ScaApproach)),
    // The NextGenPSD2 bank checks DPoP proofs too (no nonce of its own: its nonce-free path is the other resource server's).
    dpop: dpopVerifier({ requireNonce: false }),
    ...(certs ? { signatures: { tppCertPem: certs.tpp, bankCertPem: certs.bank, bankKey: createPrivateKey(signingKey.privatePem) } } : {}),
  }) : undefined;
  const oidc = provider.callback();
  // Message signing: the bank signs with its authorisation server's key (published at {issuer}/jwks);
  // the bad-response-signature fault signs with a key outside that JWKS under the same kid. TPPs sign
  // with the key every client registered.
  const resources = createResourceServer({
    provider, store, faults, baseUrls, audience,
    signing: {
      bankKey: { privateJwk: signingKey.privateJwk as never, kid: signingKey.kid },
      ...(strayKey ? { strayKey: { privateJwk: { ...strayKey.privateJwk, kid: signingKey.kid } as never, kid: signingKey.kid } } : {}),
      tppKeys: { keys: [clientKey.publicJwk as never] },
      issuer,
    },
    // A DPoP set-up's resource server demands its nonce too, so that the TPP's one retry is exercised.
    dpop: dpopVerifier({ requireNonce: sec?.senderConstraint === 'dpop' }),
  });
  const pagesContext = { provider, store, faults };

  handler = (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const rs = /^\/(A|B)\/open-banking\/v3\.1(\/.*)?$/.exec(url.pathname);
    const uk = /^\/open-banking\/v3\.1(\/.*)?$/.exec(url.pathname);
    const uk4 = /^\/open-banking\/v4\.0(\/.*)?$/.exec(url.pathname);
    const interaction = /^\/interaction\/([\w-]+)(?:\/(login|confirm|abort))?$/.exec(url.pathname);
    const done = (error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(res.writableEnded ? undefined : `sandbox error: ${(error as Error).message}`);
    };
    // The berlin-group bank serves its own API and PSU pages; the callback and the issuer are shared.
    if (bg?.handle(req, res, url, done)) return;
    if (rs && !bg) {
      resources(req, res, rs[1] as Variant, rs[2] ?? '/', url.search).catch(done);
    } else if (uk && !bg) {
      resources(req, res, 'A', uk[1] ?? '/', url.search, 'uk-3.1').catch(done);
    } else if (uk4 && !bg) {
      resources(req, res, 'A', uk4[1] ?? '/', url.search, 'uk-4.0').catch(done);
    } else if (interaction && !bg) {
      handleInteraction(pagesContext, req, res, interaction[1], interaction[2]).catch(done);
    } else if (url.pathname === '/tpp/callback') {
      // The TPP catches this redirect in the browser; a person in manual mode sees this.
      sendHtml(res, 200, page('Back at the provider', `<p data-testid="tpp-callback">The bank sent you back${url.searchParams.get('error') ? ` with <code>${html(url.searchParams.get('error'))}</code>` : ''}. You may close this window.</p>`));
    } else {
      if (faults.has('request-object-none-accepted') && url.pathname === '/auth') {
        const rewritten = acceptUnsignedRequestObject(url);
        if (rewritten) req.url = rewritten.pathname + rewritten.search;
      }
      oidc(req, res);
    }
  };

  // The directory's software statement for the TPP's software, signed by the key registration trusts.
  const softwareStatement = await issueSoftwareStatement(directorySigner, {
    softwareId: 'obtpp-reference-tpp', clientName: 'obtpp reference TPP (registered)', redirectUris, jwks: { keys: [clientKey.publicJwk as never] },
  });
  const sandbox: Sandbox = {
    issuer,
    dialect,
    ...(sec ? { security: sec } : {}),
    ...(sca ? { sca } : {}),
    ...(certs ? { signatureCertificates: certs } : {}),
    baseUrls,
    clients: clients.map((c) => c.client),
    psus: store.psus.map((p) => ({
      username: p.username, password: p.password, name: p.name,
      accounts: p.accounts.map((a) => ({
        AccountId: a.AccountId, Identification: a.Identification, SchemeName: a.SchemeName, Name: a.Name,
        ...(bgStore ? { Currency: 'EUR', iban: ibanOf(a) } : { Currency: a.Currency }),
      })),
    })),
    tppSigning: { privateKeyPem: clientKey.privatePem, kid: clientKey.kid },
    jwksUri: `${issuer}/jwks`,
    ...(pki ? { tls: { caPem: pki.caPem, clientCertPem: pki.clientCertPem, clientKeyPem: pki.clientKeyPem } } : {}),
    faults: [...(bgFaults ?? faults)],
    registration: { softwareStatement, keyPem: clientKey.privatePem, kid: clientKey.kid },
    // A FAPI set-up's profiles use the private_key_jwt client (FAPI allows no client secrets).
    profile: (variant = 'all', clientIndex = sec ? 1 : 0) => profileFor(sandbox, variant, clientIndex),
    issuedTokens: () => [...issued],
    psuRevoke: (consentId) => {
      const consent = bgStore?.consents.get(consentId);
      if (!consent || bgStore!.refresh(consent).status !== 'valid') return false;
      consent.status = 'revokedByPsu';
      return true;
    },
    stop: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
  return sandbox;
}

function makeClients(redirectUris: string[], key: Awaited<ReturnType<typeof rsaKey>>, pki: TlsMaterial | undefined, sec: SandboxSecurityInfo | undefined, faults: ReturnType<typeof parseFaults>, secondKey?: RsaKey) {
  const common = {
    redirect_uris: redirectUris,
    grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
    response_types: sec ? [...sec.responseTypes] : ['code'],
    id_token_signed_response_alg: 'PS256',
    // Every client may sign request objects with the sandbox-made key.
    jwks: { keys: [key.publicJwk] },
    // The set-up's sender constraint holds for every client: tokens bound to its certificate, or to its DPoP key.
    ...(sec?.senderConstraint === 'mtls' ? { tls_client_certificate_bound_access_tokens: true } : {}),
    ...(sec?.senderConstraint === 'dpop' ? { dpop_bound_access_tokens: true } : {}),
    ...(sec?.jarm ? { authorization_signed_response_alg: faults.has('jarm-signed-rs256') ? 'RS256' : 'PS256' } : {}),
  };
  const list: Array<{ metadata: ClientMetadata; client: SandboxClient }> = [];
  const secret = randomBytes(24).toString('base64url');
  // Every client holds the key its request objects are signed with (the FAPI checks of SEC-11 sign some).
  const keyed = { privateJwk: key.privateJwk as SandboxClient['privateJwk'], privateKeyPem: key.privatePem, kid: key.kid };
  list.push({
    metadata: { ...common, client_id: 'obtpp-sandbox-basic', client_name: 'obtpp reference TPP', client_secret: secret, token_endpoint_auth_method: 'client_secret_basic' } as ClientMetadata,
    client: { clientId: 'obtpp-sandbox-basic', clientName: 'obtpp reference TPP', authMethod: 'client_secret_basic', clientSecret: secret, ...keyed, redirectUri: redirectUris[0], redirectUris },
  });
  list.push({
    metadata: { ...common, client_id: 'obtpp-sandbox-jwt', client_name: 'obtpp reference TPP (private_key_jwt)', token_endpoint_auth_method: 'private_key_jwt', token_endpoint_auth_signing_alg: 'PS256', request_object_signing_alg: 'PS256' } as ClientMetadata,
    client: { clientId: 'obtpp-sandbox-jwt', clientName: 'obtpp reference TPP (private_key_jwt)', authMethod: 'private_key_jwt', ...keyed, redirectUri: redirectUris[0], redirectUris },
  });
  if (pki) {
    list.push({
      metadata: {
        ...common, client_id: 'obtpp-sandbox-mtls', client_name: 'obtpp reference TPP (mTLS)', token_endpoint_auth_method: 'tls_client_auth',
        tls_client_auth_subject_dn: pki.clientSubjectDn, tls_client_certificate_bound_access_tokens: true,
      } as ClientMetadata,
      client: {
        clientId: 'obtpp-sandbox-mtls', clientName: 'obtpp reference TPP (mTLS)', authMethod: 'tls_client_auth', ...keyed,
        certPem: pki.clientCertPem, keyPem: pki.clientKeyPem, redirectUri: redirectUris[0], redirectUris,
      },
    });
  }
  if (secondKey) {
    // Its own key: a request object or client assertion signed with it is no proof of the first client.
    const jwt = { token_endpoint_auth_method: 'private_key_jwt', token_endpoint_auth_signing_alg: 'PS256', request_object_signing_alg: 'PS256' };
    list.push({
      metadata: { ...common, jwks: { keys: [secondKey.publicJwk] }, client_id: SECOND_CLIENT, client_name: 'obtpp reference TPP (second client)', ...jwt } as ClientMetadata,
      client: {
        clientId: SECOND_CLIENT, clientName: 'obtpp reference TPP (second client)', authMethod: 'private_key_jwt',
        privateJwk: secondKey.privateJwk as SandboxClient['privateJwk'], privateKeyPem: secondKey.privatePem, kid: secondKey.kid, redirectUri: redirectUris[0], redirectUris,
      },
    });
  }
  return list;
}

const SCA_APPROACHES: readonly ScaApproachName[] = ['redirect', 'oauth', 'decoupled', 'embedded'];

/** The berlin-group bank's SCA approaches: known, each once, at least one; default redirect and oauth. */
function parseSca(sca: readonly string[] | undefined): ScaApproachName[] {
  if (sca === undefined) return ['redirect', 'oauth'];
  const unknown = sca.filter((a) => !SCA_APPROACHES.includes(a as ScaApproachName));
  if (unknown.length) throw new UsageError(`unknown SCA approach ${unknown.map((a) => JSON.stringify(a)).join(', ')}: ${SCA_APPROACHES.join(', ')}`);
  if (!sca.length || new Set(sca).size !== sca.length) throw new UsageError(`--sca ${sca.join(',')}: name each approach the bank offers once (${SCA_APPROACHES.join(', ')})`);
  return [...sca] as ScaApproachName[];
}

function profileFor(sb: Sandbox, layout: Variant | 'all' | Standard, clientIndex: number): Record<string, unknown> {
  const client = sb.clients[clientIndex];
  if (!client) throw new RangeError(`the sandbox has ${sb.clients.length} clients; there is no client ${clientIndex}`);
  if (layout === 'uk-3.1' || layout === 'uk-4.0') {
    if (sb.dialect !== 'obie') throw new RangeError(`the ${sb.dialect} sandbox has no ${layout} layout`);
    // The standard's own paths below {issuer}/open-banking/v3.1 (or v4.0): no variants, no path overrides.
    const { variants: _v, variantBaseUrls: _u, paths: _p, ...rest } = profileFor(sb, 'A', clientIndex);
    return layout === 'uk-3.1'
      ? { ...rest, name: 'obtpp sandbox (UK Read/Write v3.1.11)', standard: 'uk-3.1', baseUrl: `${sb.issuer}/${API}` }
      : { ...rest, name: 'obtpp sandbox (UK Read/Write v4.0)', standard: 'uk-4.0', baseUrl: `${sb.issuer}/${API_V4}` };
  }
  const variant = layout;
  const variants: Variant[] = variant === 'all' ? ['A', 'B'] : [variant];
  const psu = sb.psus[0];
  const clientAuth: Record<string, unknown> = { method: client.authMethod };
  if (client.clientSecret) clientAuth.secret = client.clientSecret;
  if (client.privateKeyPem) Object.assign(clientAuth, { privateKey: client.privateKeyPem, kid: client.kid, alg: 'PS256' });
  const bg = sb.dialect === 'berlin-group';
  // The OIDF checks that need another client use the second private_key_jwt client, where the set-up has one.
  const second = bg ? undefined : sb.clients.find((c) => c.clientId === SECOND_CLIENT);
  const sca = sb.sca ?? ['redirect', 'oauth'];
  // A berlin-group bank without OAuth2 SCA has no authorisation server for the TPP: no auth block, no registration.
  const oauth = !bg || sca.includes('oauth');
  return {
    name: `obtpp sandbox${bg ? ' (berlin-group)' : ''}${variant === 'all' ? '' : ` (variant ${variant})`}`,
    ...(bg ? {
      dialect: 'berlin-group',
      sca: {
        approaches: [...sca],
        ...(oauth ? {} : sca.includes('redirect') ? { redirectUri: client.redirectUri } : {}),
        ...(sca.includes('decoupled') ? { decoupledUrl: `${sb.issuer}/bg/app/{authorisationId}` } : {}),
        ...(sca.includes('embedded') ? { otp: SANDBOX_OTP } : {}),
        // Multilevel SCA: payments from alice's joint account need bob's SCA too (variant A has the payments).
        ...(variants.includes('A') && psu.username === 'alice' ? multilevelOf(sb.psus, sca[0] === 'embedded') : {}),
      },
      psuIpAddress: '127.0.0.1',
      deltaReports: { entryReferenceFrom: true, deltaList: true, cards: true },
      paymentProducts: ['sepa-credit-transfers', 'instant-sepa-credit-transfers', 'target-2-payments', 'cross-border-credit-transfers', 'pain.001-sepa-credit-transfers', 'pain.001-instant-sepa-credit-transfers', 'pain.001-target-2-payments', 'pain.001-cross-border-credit-transfers'],
    } : {}),
    variants,
    baseUrl: sb.baseUrls[variants[0]],
    variantBaseUrls: Object.fromEntries(variants.map((v) => [v, sb.baseUrls[v]])),
    tppName: client.clientName,
    ...(bg ? {
      // NextGenPSD2 1.3.x: /v1/… paths, no funds-confirmation consent, no transaction detail in B.
      implements: {
        A: ['createAccountAccessConsent', 'getAccountAccessConsent', 'getConsentStatus', 'deleteAccountAccessConsent', 'startConsentAuthorisation', 'listConsentAuthorisations', 'updateConsentPsuData', 'getConsentScaStatus', 'listAccounts', 'getAccount', 'getBalances', 'getTransactions', 'getTransaction', ...CARD_OPERATIONS, 'confirmFunds', 'createPaymentConsent', 'getPayment', 'getPaymentStatus', 'startPaymentAuthorisation', 'updatePaymentPsuData', 'listPaymentAuthorisations', 'getPaymentScaStatus', 'cancelPayment', 'startPaymentCancellationAuthorisation', 'listPaymentCancellationAuthorisations', 'getPaymentCancellationScaStatus', 'updatePaymentCancellationPsuData', 'createPeriodicPayment', 'getPeriodicPayment', 'getPeriodicPaymentStatus', 'createBulkPayment', 'getBulkPayment', 'getBulkPaymentStatus',
          'createSigningBasket', 'getSigningBasket', 'getSigningBasketStatus', 'deleteSigningBasket', 'startSigningBasketAuthorisation', 'listSigningBasketAuthorisations', 'getSigningBasketScaStatus', 'updateSigningBasketPsuData'],
        B: ['createAccountAccessConsent', 'getAccountAccessConsent', 'getConsentStatus', 'deleteAccountAccessConsent', 'startConsentAuthorisation', 'listConsentAuthorisations', 'updateConsentPsuData', 'getConsentScaStatus', 'listAccounts', 'getAccount', 'getBalances', 'getTransactions', ...CARD_OPERATIONS, 'confirmFunds'],
      },
    } : { paths: { accountAccessConsents: '/account-access-consents', paymentProduct: 'domestic-payments' } }),
    ...(oauth ? { auth: {
      issuer: sb.issuer,
      clientId: client.clientId,
      clientAuth,
      ...(second && second !== client ? { secondClient: { clientId: second.clientId, clientAuth: { method: 'private_key_jwt', privateKey: second.privateKeyPem, kid: second.kid, alg: 'PS256' } } } : {}),
      redirectUri: client.redirectUri,
      ...(bg
        ? { scopes: { ais: 'AIS', cof: 'PIIS', pis: 'PIS' }, intentBinding: { method: 'scope', scopeTemplate: '{scope}:{intentId}' }, offlineAccess: false }
        : { scopes: { ais: 'accounts', cof: 'fundsconfirmations', pis: 'payments' }, intentBinding: { method: 'claims' }, offlineAccess: true }),
    } } : {}),
    psu: { username: psu.username, password: psu.password, driver: { kind: 'sandbox' } },
    // Payment requests are signed with the key every client registered; the bank's answers verify against its JWKS.
    signing: { key: sb.tppSigning.privateKeyPem, kid: sb.tppSigning.kid, ...(sb.signatureCertificates ? { certificate: sb.signatureCertificates.tpp } : {}) },
    bank: { jwks: sb.jwksUri, ...(sb.signatureCertificates ? { requiresSignedRequests: true, signingCertificate: sb.signatureCertificates.bank } : {}) },
    ...(oauth ? { registration: { softwareStatement: sb.registration.softwareStatement, key: sb.registration.keyPem, kid: sb.registration.kid } } : {}),
    // Loopback answers in milliseconds: tight limits make a hung or flooding bank (the chaos faults) cost seconds.
    timeouts: { ...SANDBOX_TIMEOUTS },
    limits: { maxBodyBytes: SANDBOX_MAX_BODY_BYTES },
    ...(sb.tls ? {
      mtls: { ca: sb.tls.caPem, ...(client.authMethod === 'tls_client_auth' || sb.security?.senderConstraint === 'mtls' ? { cert: sb.tls.clientCertPem, key: sb.tls.clientKeyPem } : {}) },
    } : {}),
    ...(sb.security ? { security: { ...sb.security.profile } } : {}),
    tls: { insecure: false },
  };
}

/** The berlin-group profile's multilevel SCA: payments from alice's joint account need bob's SCA too (src/sandbox/berlin-group/multilevel.ts). */
function multilevelOf(psus: SandboxPsu[], cancellation: boolean): { multilevel?: { iban: string; psu: { username: string; password: string }; cancellation?: true } } {
  const iban = psus.find((p) => p.username === 'alice')?.accounts.find((a) => a.AccountId === 'alice-joint')?.iban;
  const second = psus.find((p) => p.username === 'bob');
  // The bank needs both holders to cancel such a payment whatever the approach; the profile says so
  // only where the run walks the embedded approach first (no browser): the cancellation scenario
  // costs four PSU journeys, too many for the default redirect run.
  return iban && second ? { multilevel: { iban, psu: { username: second.username, password: second.password }, ...(cancellation ? { cancellation: true as const } : {}) } } : {};
}
