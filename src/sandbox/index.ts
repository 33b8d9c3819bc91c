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
import type Provider from 'oidc-provider';
import type { ClientMetadata } from 'oidc-provider';
import { acceptUnsignedRequestObject, createAuthServer } from './auth-server.ts';
import { MISMATCHED_NAME, SANDBOX_MAX_BODY_BYTES, SANDBOX_TIMEOUTS, type Faults } from './faults.ts';
import { anchorDay, buildFixtures } from './fixtures.ts';
import { html, page, sendHtml } from './http.ts';
import { rsaKey, selfSignedCertificate, tlsMaterial } from './keys.ts';
import { KeptPromises } from '../kept.ts';
import type { RsaKey, TlsMaterial } from './keys.ts';
import { issueSoftwareStatement } from './registration.ts';
import type { Variant } from '../profile/types.ts';
import { sandboxSecurity, type SandboxSecurityInfo } from './security.ts';
import { dpopVerifier } from './dpop.ts';
import type { BankConfig, MountedBank, SandboxBank } from './bank.ts';
import type { FixturePsu } from './fixtures.ts';
import type { Sandbox, SandboxClient, SandboxOptions } from './sandbox-types.ts';
import { baseStandard, findStandard, orList, sandboxStandards, versionOf } from '../standards/registry.ts';

export { listFaults, parseFaults, UnknownFaultError, SANDBOX_MAX_BODY_BYTES, SANDBOX_TIMEOUTS } from './faults.ts';
export { SANDBOX_SECURITY, sandboxSecurity, type SandboxSecurityInfo, type SandboxSecurityName } from './security.ts';
export type { ChaosFaultName, FaultInfo, FaultName } from './faults.ts';
export type { Variant } from '../profile/types.ts';

export type { Sandbox, SandboxClient, SandboxOptions, SandboxPsu } from './sandbox-types.ts';

/** The client id of a FAPI set-up's second private_key_jwt client. */
const SECOND_CLIENT = 'obtpp-sandbox-jwt-2';

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
const processKeys = new KeptPromises<'directory' | 'signing' | 'client' | 'second-client', RsaKey>();
function processKey(role: 'directory' | 'signing' | 'client' | 'second-client'): Promise<RsaKey> {
  return processKeys.get(role, rsaKey);
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

/** The audience every sandbox access token carries (the bank's resources below the issuer). */
const AUDIENCE_PATH = 'open-banking/v3.1';

/** The bank of a standard that has one (the registry's), or a usage error naming those that do. */
async function bankOf(dialect: string): Promise<SandboxBank> {
  const sandbox = findStandard(dialect)?.sandbox;
  if (!sandbox) throw new UsageError(`unknown sandbox dialect ${JSON.stringify(dialect)}: ${orList(sandboxStandards().map((s) => s.name))}`);
  return sandbox.bank();
}

/** Starts the sandbox bank and resolves once it is listening. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const dialect = options.dialect ?? baseStandard().name;
  const bank = await bankOf(dialect);
  // Each standard's bank has its own faults and options; the sandbox's own parts read `shared`.
  const config = bank.configure(options);
  const faults = config.shared;
  const sec = sandboxSecurity(options.security);
  if (options.signatures && !bank.signatures) {
    const signer = sandboxStandards().find((s) => s.sandbox?.options?.signatures);
    throw new UsageError(`signatures (the NextGenPSD2 HTTP signature) is for the ${signer?.name ?? 'other'} bank`);
  }
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
  const store = bank.store(fixtures, options.clock);

  // The provider needs the issuer, which needs the port: listen first, then build the handlers.
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.writeHead(503).end();
  };
  const { server, issuer } = await listen(options, host, pki, (req, res) => handler(req, res));
  const baseUrls: Record<Variant, string> = { A: `${issuer}/A/${bank.basePath}`, B: `${issuer}/B/${bank.basePath}` };
  const audience = `${issuer}/${AUDIENCE_PATH}`;
  const callback = `${issuer}/tpp/callback`;
  const redirectUris = [callback, ...(options.redirectUris ?? [])];

  const clients = makeClients(redirectUris, clientKey, pki, sec, faults, secondKey);
  const issued = new Set<string>();
  const provider = createAuthServer({
    issued, security: sec, dpopNonceSecret: randomBytes(32),
    issuer, resources: [audience, baseUrls.A, baseUrls.B], signingKey, store, faults, tls: useTls, directory: directorySigner,
    clients: clients.map((c) => c.metadata),
    ...(bank.resourceScopes ? { resourceScopes: bank.resourceScopes(store) } : {}),
  });
  const certs = options.signatures ? await signatureCertificates() : undefined;
  const mounted = bank.mount(store, {
    provider, issuer, baseUrls, audience, config,
    keys: { signing: signingKey, client: clientKey, ...(strayKey ? { stray: strayKey } : {}) },
    ...(certs ? { signatures: { tppCertPem: certs.tpp, bankCertPem: certs.bank, bankKey: createPrivateKey(signingKey.privatePem) } } : {}),
    dpop: dpopVerifier,
    dpopBound: sec?.senderConstraint === 'dpop',
  });

  handler = frontDoor(issuer, mounted, faults, provider.callback());

  // The directory's software statement for the TPP's software, signed by the key registration trusts.
  const softwareStatement = await issueSoftwareStatement(directorySigner, {
    softwareId: 'obtpp-reference-tpp', clientName: 'obtpp reference TPP (registered)', redirectUris, jwks: { keys: [clientKey.publicJwk as never] },
  });
  return sandboxOf({ issuer, dialect, sec, config, certs, baseUrls, clients, fixtures, bank, clientKey, pki, softwareStatement, issued, mounted, server });
}

/**
 * What the server answers: the standard's bank its API and PSU pages, the sandbox the TPP's
 * callback page, and the authorisation server the rest.
 */
function frontDoor(issuer: string, mounted: MountedBank, faults: Faults, oidc: ReturnType<Provider['callback']>): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const done = (error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(res.writableEnded ? undefined : `sandbox error: ${(error as Error).message}`);
    };
    // The standard's bank serves its own API and PSU pages; the callback and the issuer are shared.
    if (mounted.handle(req, res, url, done)) return;
    if (url.pathname === '/tpp/callback') {
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
}

/** The running sandbox, as its users see it: its URLs, clients, PSUs and keys, its profile writer, and its stop. */
function sandboxOf(o: {
  issuer: string; dialect: string; sec: SandboxSecurityInfo | undefined; config: BankConfig; certs: { tpp: string; bank: string } | undefined;
  baseUrls: Record<Variant, string>; clients: ReturnType<typeof makeClients>; fixtures: FixturePsu[]; bank: SandboxBank; clientKey: RsaKey;
  pki: TlsMaterial | undefined; softwareStatement: string; issued: Set<string>; mounted: MountedBank; server: Server;
}): Sandbox {
  const { issuer, sec, config, certs, bank, clientKey, pki, server } = o;
  const sandbox: Sandbox = {
    issuer,
    dialect: o.dialect,
    ...(sec ? { security: sec } : {}),
    ...(config.sca ? { sca: config.sca } : {}),
    ...(certs ? { signatureCertificates: certs } : {}),
    baseUrls: o.baseUrls,
    clients: o.clients.map((c) => c.client),
    psus: o.fixtures.map((p) => ({
      username: p.username, password: p.password, name: p.name,
      accounts: p.accounts.map((a) => ({ AccountId: a.AccountId, Identification: a.Identification, SchemeName: a.SchemeName, Name: a.Name, ...bank.account(a) })),
    })),
    tppSigning: { privateKeyPem: clientKey.privatePem, kid: clientKey.kid },
    jwksUri: `${issuer}/jwks`,
    ...(pki ? { tls: { caPem: pki.caPem, clientCertPem: pki.clientCertPem, clientKeyPem: pki.clientKeyPem } } : {}),
    faults: config.names,
    registration: { softwareStatement: o.softwareStatement, keyPem: clientKey.privatePem, kid: clientKey.kid },
    // A FAPI set-up's profiles use the private_key_jwt client (FAPI allows no client secrets).
    profile: (variant = 'all', clientIndex = sec ? 1 : 0) => profileFor(sandbox, bank, variant, clientIndex),
    issuedTokens: () => [...o.issued],
    psuRevoke: (consentId) => o.mounted.psuRevoke?.(consentId) ?? false,
    stop: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
  return sandbox;
}

/** The server, listening (HTTPS with the private PKI's certificate, asking for a client certificate), and its issuer URL. */
async function listen(options: SandboxOptions, host: string, pki: TlsMaterial | undefined, listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; issuer: string }> {
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
  return { server, issuer: `${pki ? 'https' : 'http'}://${urlHost(host)}:${port}` };
}

function makeClients(redirectUris: string[], key: Awaited<ReturnType<typeof rsaKey>>, pki: TlsMaterial | undefined, sec: SandboxSecurityInfo | undefined, faults: Faults, secondKey?: RsaKey) {
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

/**
 * The sandbox's profile (what a profile file holds): the shared parts — its clients, PSU, keys,
 * time-outs — and the bank's own (its standard's fields, operations and auth settings); a
 * published version's layout is the bank's to write from its variant-A profile.
 */
function profileFor(sb: Sandbox, bank: SandboxBank, layout: Variant | 'all' | string, clientIndex: number): Record<string, unknown> {
  const client = sb.clients[clientIndex];
  if (!client) throw new RangeError(`the sandbox has ${sb.clients.length} clients; there is no client ${clientIndex}`);
  if (versionOf(layout)) {
    const written = bank.versionProfile?.(sb, layout, profileFor(sb, bank, 'A', clientIndex));
    if (!written) throw new RangeError(`the ${sb.dialect} sandbox has no ${layout} layout`);
    return written;
  }
  const variant = layout as Variant | 'all';
  const variants: Variant[] = variant === 'all' ? ['A', 'B'] : [variant];
  const psu = sb.psus[0];
  const parts = { sb, variant, variants, client, psu };
  const clientAuth: Record<string, unknown> = { method: client.authMethod };
  if (client.clientSecret) clientAuth.secret = client.clientSecret;
  if (client.privateKeyPem) Object.assign(clientAuth, { privateKey: client.privateKeyPem, kid: client.kid, alg: 'PS256' });
  // A bank whose SCA needs no authorisation server has no auth block for the TPP, and no registration.
  const oauth = bank.oauth(sb);
  // The OIDF checks that need another client use the second private_key_jwt client, where the set-up and the bank have one.
  const second = bank.secondClient ? sb.clients.find((c) => c.clientId === SECOND_CLIENT) : undefined;
  return {
    name: `obtpp sandbox${bank.profileName ?? ''}${variant === 'all' ? '' : ` (variant ${variant})`}`,
    ...(bank.profileHead?.(parts, oauth) ?? {}),
    variants,
    baseUrl: sb.baseUrls[variants[0]],
    variantBaseUrls: Object.fromEntries(variants.map((v) => [v, sb.baseUrls[v]])),
    tppName: client.clientName,
    ...bank.profileOperations(parts),
    ...(oauth ? {
      auth: {
        issuer: sb.issuer,
        clientId: client.clientId,
        clientAuth,
        ...(second && second !== client ? { secondClient: { clientId: second.clientId, clientAuth: { method: 'private_key_jwt', privateKey: second.privateKeyPem, kid: second.kid, alg: 'PS256' } } } : {}),
        redirectUri: client.redirectUri,
        ...bank.profileAuth(),
      },
    } : {}),
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
