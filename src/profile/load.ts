import { INPUT_LIMITS, parseYaml, readInputFile } from './input-files.ts';
import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BankUnreachableError, ProfileError } from '../errors.ts';
import type { AccountChoice, ApiLocation, Fn, OperationName, Profile, ProfilePaths, RegistrationSettings, Variant } from './types.ts';
import { profileSchema, profileSchemaOf } from './schema.ts';
import { buildOutput } from '../dialects/prebuilt.ts';
import { baseStandard, findStandard, orList, registryGeneration, standardOf, standards, versionNames, versionOf, type StandardModule } from '../standards/registry.ts';

/** The shared defaults: the spec's own paths and scopes (a standard's module says what it changes), time-outs and limits. */
export const DEFAULTS = {
  paths: {
    accountAccessConsents: '/account-access-consents',
    accounts: '/accounts',
    transactionDetail: '/{AccountId}/transactions/{resourceId}',
    fundsConfirmationConsents: '/funds-confirmation-consents',
    fundsConfirmations: '/funds-confirmations',
    paymentProduct: 'domestic-payments',
    paymentsPrefix: '',
    paymentOrders: '/{payment-product}',
    paymentStatus: '/{payment-product}/{paymentId}/status',
  },
  scopes: { ais: 'accounts', cof: 'fundsconfirmations', pis: 'payments' },
  timeouts: { requestMs: 10_000, browserStepMs: 10_000, authorisationMs: 60_000 },
  limits: { maxBodyBytes: 1024 * 1024 },
} as const;

/** Where the built-in profiles live (profiles/ at the package root, from src/ or dist/src/). */
export function builtinProfileDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(dir, 'profiles')) && existsSync(join(dir, 'package.json'))) return join(dir, 'profiles');
    dir = dirname(dir);
  }
  return resolve('profiles');
}

/**
 * Resolves `--profile NAME|FILE`: an existing file path, else `profiles/NAME.yaml|yml|json`.
 */
export function resolveProfilePath(nameOrFile: string, cwd = process.cwd()): string {
  const direct = isAbsolute(nameOrFile) ? nameOrFile : resolve(cwd, nameOrFile);
  if (existsSync(direct)) return direct;
  for (const ext of ['.yaml', '.yml', '.json']) {
    const candidate = join(builtinProfileDir(), nameOrFile + ext);
    if (existsSync(candidate)) return candidate;
  }
  throw new ProfileError(`profile ${nameOrFile}: no such file, and no built-in profile of that name`, [], {
    hint: 'pass a path to a YAML or JSON profile, or see profiles/ for examples',
  });
}

/** How many of a profile's problems the error lists (the rest are counted). */
const MAX_PROBLEMS_SHOWN = 20;

export interface LoadOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
}

/** Reads, interpolates, validates and completes a profile file. Every problem is reported at once. */
export async function loadProfile(nameOrFile: string, options: LoadOptions = {}): Promise<Profile> {
  const file = resolveProfilePath(nameOrFile, options.cwd);
  let text: string;
  try {
    text = await readInputFile(file, INPUT_LIMITS.profile);
  } catch (error) {
    throw new ProfileError(`profile ${file}: cannot be read (${(error as Error).message})`, [], { cause: error });
  }
  let raw: unknown;
  try {
    raw = extname(file) === '.json' ? JSON.parse(text) : await parseYaml(text);
  } catch (error) {
    throw new ProfileError(`profile ${file}: not valid ${extname(file) === '.json' ? 'JSON' : 'YAML'}: ${syntaxProblem(error, text)}`, [], { cause: error });
  }
  return profileFromObject(raw, { ...options, source: file });
}

/**
 * A parse error as one line that ends with the offending line itself (the yaml library's message
 * ends in `at line 3, column 1:` and puts the excerpt on the lines after). A value on a key that
 * looks secret is masked: a profile may hold a literal secret.
 */
function syntaxProblem(error: unknown, text: string): string {
  const message = (error as Error).message ?? String(error);
  const pos = (error as { linePos?: Array<{ line: number; col: number }> }).linePos?.[0];
  if (!pos) return message.split('\n')[0];
  const head = message.split('\n')[0].replace(/\s*at line \d+, column \d+:?\s*$/, '');
  const lines = text.split(/\r?\n/);
  let at = pos.line;
  // An error at an empty line (often the end of the file) is about the last line with text before it.
  while (at > 1 && (lines[at - 1] ?? '').trim() === '') at--;
  const shown = (lines[at - 1] ?? '').replace(/^(\s*-?\s*[\w.-]*(?:secret|password|passphrase|token|privatekey|private_key|key)\w*\s*:\s*)(\S.*)$/i, '$1***');
  const where = at === pos.line ? `line ${pos.line}, column ${pos.col}` : `line ${pos.line}, column ${pos.col} (after line ${at})`;
  return `${head} at ${where}: ${JSON.stringify(shown.length > 120 ? shown.slice(0, 117) + '...' : shown)}`;
}

/** Validates and completes a profile that is already an object (the sandbox makes them this way). */
export async function profileFromObject(raw: unknown, options: LoadOptions & { source: string }): Promise<Profile> {
  const env = options.env ?? process.env;
  const source = options.source;
  const problems: string[] = [];
  const secrets = new Set<string>();
  const interpolated = interpolate(raw, '$', env, problems, secrets);
  // A missing variable is reported once, as such, not again as the empty string it left behind.
  const unset = new Set(problems.map((p) => p.slice(0, p.indexOf(': '))));
  const schemaProblems = await validate(interpolated);
  problems.push(...schemaProblems.filter((p) => !unset.has(p.slice(0, p.indexOf(': ')))));
  problems.push(...crossFieldProblems(interpolated as Record<string, any> | undefined, schemaProblems.length === 0));
  if (problems.length > 0) {
    // A profile of thousands of stray keys is told so in a screenful, not in thousands of lines.
    const shown = problems.length > MAX_PROBLEMS_SHOWN ? [...problems.slice(0, MAX_PROBLEMS_SHOWN), `… and ${problems.length - MAX_PROBLEMS_SHOWN} more problems`] : problems;
    throw new ProfileError(shown.map((p) => `profile ${source}: ${p}`).join('\n'), problems, {
      hint: 'fix the fields named above; profiles/example-bank.yaml documents every field',
    });
  }
  const profile = await completeProfile(interpolated as Record<string, any>, source, secrets);
  completed.add(profile);
  return profile;
}

/** A field of a profile as written, by its dotted path (`bank.signingCertificate`), or undefined. */
function fieldAt(raw: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o === null || o === undefined ? undefined : (o as Record<string, unknown>)[k]), raw);
}

/**
 * The rules across fields that the schema cannot say where a reader would look for them, in the
 * order they are told: the request object's key; each standard's own fields (on a profile of
 * another standard) and its own checks; once the schema holds, the layout (each standard's, then
 * the variants and the published version) and a profile without an auth block; the security block.
 */
function crossFieldProblems(top: Record<string, any> | undefined, schemaOk: boolean): string[] {
  const problems: string[] = [];
  // Without a client of its own, the profile's registration key signs what the client's key would have.
  const ia = top?.auth;
  const registers = top?.registration !== undefined;
  if (schemaOk && ia?.intentBinding?.method === 'request-object' && !ia.clientAuth?.privateKey && !ia.clientAuth?.privateKeyFile && !(registers && ia.clientId === undefined)) {
    problems.push('$.auth.clientAuth.privateKeyFile: a signing key (privateKeyFile or privateKey) is required when auth.intentBinding.method is request-object');
  }
  const dialect = String(top?.dialect ?? baseStandard().name);
  // A standard's own fields mean nothing to a bank of another standard.
  for (const s of standards()) {
    if (s.name === dialect) problems.push(...(s.profile.ownProblems?.(top ?? {}) ?? []));
    else for (const field of s.profile.ownFields ?? []) if (fieldAt(top, field) !== undefined) problems.push(`$.${field}: only for dialect ${s.name} (this profile's dialect is ${dialect})`);
  }
  if (schemaOk && top) problems.push(...layoutProblems(top, dialect));
  if (schemaOk && top && top.auth === undefined) problems.push(...withoutAuthProblems(top, dialect));
  if (schemaOk) problems.push(...securityProblems(top?.security));
  return problems;
}

/**
 * The spec's layout names its variants; a profile of a published version is judged by variant A's
 * rules, and a version belongs to its standard. Each standard's own layout checks come first (a
 * UK discovery document implies `standard: uk-3.1`).
 */
function layoutProblems(top: Record<string, any>, dialect: string): string[] {
  const problems: string[] = [];
  for (const s of standards()) problems.push(...(s.profile.layoutProblems?.(top, { mine: s.name === dialect, dialect }) ?? []));
  if (top.standard === undefined && top.variants === undefined) problems.push(`$.variants: required: the variants of the spec the bank implements ([A], [B] or [A, B]), unless standard names the published standard it serves (standard: ${versionNames().join(' or ')})`);
  const owner = versionOf(top.standard)?.standard;
  if (owner && owner.name !== dialect) problems.push(`$.standard: ${String(top.standard)} is ${owner.words.versions ?? `a ${owner.name} standard`}; a ${dialect} profile has none (leave standard out)`);
  if (top.standard !== undefined && top.variants !== undefined && JSON.stringify(top.variants) !== '["A"]') problems.push(`$.variants: a ${String(top.standard)} profile is judged by variant A's rules only; leave variants out (or write [A])`);
  return problems;
}

/** A bank without an authorisation server: only a standard that allows it, and then no OAuth anywhere. */
function withoutAuthProblems(top: Record<string, any>, dialect: string): string[] {
  const own = findStandard(dialect)?.profile.withoutAuth;
  if (own) return own.problems(top);
  const allowed = standards().flatMap((s) => (s.profile.withoutAuth ? [s.profile.withoutAuth.words] : []));
  return [`$.auth: is required${allowed.length ? ` (only ${orList(allowed)} goes without)` : ''}`];
}

/**
 * The profile, completed: files read, defaults applied (the shared ones, then those of its
 * standard and published version), its secrets collected.
 */
async function completeProfile(p: Record<string, any>, source: string, secrets: Set<string>): Promise<Profile> {
  const baseDir = source.startsWith('builtin:') || source === 'sandbox' ? process.cwd() : dirname(source);
  const standard = standardOf(p.dialect);
  // No auth block (a standard that allows it, checked above): no client, no discovery; the redirect URI is the standard's own.
  const absent = p.auth === undefined;
  // Without the redirect approach nothing is sent to it; the PSU's browser still needs a URL that ends a journey.
  const auth = p.auth ?? { redirectUri: standard.profile.redirectUri?.(p) ?? 'http://127.0.0.1/obtpp-no-redirect', clientId: '', clientAuth: { method: 'tls_client_auth' } };
  const { registered, clientAuth, second } = await clientsOf(p, auth, baseDir, source, secrets);
  const mtls = await mtlsOf(p, baseDir, source);
  if (!absent && clientAuth.method === 'tls_client_auth' && !(mtls?.cert && mtls?.key)) {
    throw new ProfileError(`profile ${source}: $.mtls: a client certificate and key are required when auth.clientAuth.method is tls_client_auth`, ['$.mtls']);
  }
  const signing = await signingOf(p, auth.clientId, baseDir, source);
  const bankJwks = p.bank?.jwks ? await jwksValue(p.bank.jwks, baseDir, source) : undefined;
  for (const s of [clientAuth.secret, clientAuth.privateKey, mtls?.key, p.psu.password, signing?.key, ...(standard.profile.secrets?.(p) ?? [])]) if (s) secrets.add(s);
  const registration = p.registration ? await registrationOf(p, auth, baseDir, source, secrets) : undefined;
  if (registered && registration?.key) clientAuth.privateKey = registration.key;

  const version = versionOf(p.standard);
  const variants: Variant[] = version ? ['A'] : p.variants;
  const paths = { ...(standard.profile.paths?.(version?.name) ?? DEFAULTS.paths), ...(p.paths ?? {}) };
  const found = p.discovery ? await discover(p, standard, paths, baseDir, source) : undefined;
  return {
    name: p.name,
    dialect: standard.name,
    ...(version ? { standard: version.name } : {}),
    ...(p.security !== undefined ? { security: typeof p.security === 'string' ? { profile: p.security } : { ...p.security } } : {}),
    ...(standard.profile.complete?.(p, { absent }) ?? {}),
    variants,
    ...endpointsOf(p, standard.profile.apiSegments?.(version?.name), variants, found),
    paths,
    auth: authOf(auth, clientAuth, { absent, registered, standard, p, second }),
    ...(signing ? { signing } : {}),
    bank: await bankOf(p, bankJwks, baseDir, source),
    psu: { username: p.psu.username, password: p.psu.password, driver: p.psu.driver, accounts: parseAccountChoice(p.psu.accounts) },
    headers: p.headers ?? {},
    mtls,
    ...(registration ? { registration } : {}),
    tls: { insecure: p.tls?.insecure ?? false },
    timeouts: { ...DEFAULTS.timeouts, ...(p.timeouts ?? {}) },
    limits: { ...DEFAULTS.limits, ...(p.limits ?? {}) },
    tppName: p.tppName,
    source,
    secrets: [...secrets].filter((s) => s.length >= 4),
  };
}

/**
 * The profile's clients: its own client authentication (or, without a client id, the one `obtpp
 * register` will use), and its second client; their key files read, the second's secrets collected.
 */
async function clientsOf(p: Record<string, any>, auth: Record<string, any>, baseDir: string, source: string, secrets: Set<string>): Promise<{ registered: boolean; clientAuth: Record<string, any>; second?: Profile['auth']['secondClient'] }> {
  // A profile without a client of its own uses the one obtpp register issues (the session fills it in).
  const registered = auth.clientId === undefined;
  const clientAuth = registered
    ? { method: p.registration.tokenEndpointAuthMethod ?? 'client_secret_basic', ...(p.registration.kid ? { kid: p.registration.kid } : {}), ...(p.registration.alg ? { alg: p.registration.alg } : {}) }
    : { ...auth.clientAuth };
  if (clientAuth.privateKeyFile) clientAuth.privateKey = await readReferenced(clientAuth.privateKeyFile, '$.auth.clientAuth.privateKeyFile', baseDir, source);
  const second = auth.secondClient ? { ...auth.secondClient, clientAuth: { ...auth.secondClient.clientAuth } } : undefined;
  if (second?.clientAuth.privateKeyFile) second.clientAuth.privateKey = await readReferenced(second.clientAuth.privateKeyFile, '$.auth.secondClient.clientAuth.privateKeyFile', baseDir, source);
  for (const s of [second?.clientAuth.secret, second?.clientAuth.privateKey]) if (s) secrets.add(s);
  return { registered, clientAuth, second };
}

/** Where the bank's APIs are: its base URLs, per API and per variant, and what it implements; from its discovery when it has one. */
function endpointsOf(p: Record<string, any>, apiSegments: Parameters<typeof apisOf>[1], variants: Variant[], found: Awaited<ReturnType<typeof discover>> | undefined): Pick<Profile, 'baseUrl' | 'variantBaseUrls' | 'apis' | 'discovery' | 'implements' | 'absentApis'> {
  // Per-API base URLs without a base URL for everything: an API left out is one the bank does not offer.
  const absentApis = found ? found.absent : p.baseUrl ? [] : (['ais', 'cof', 'pis'] as const).filter((fn) => !p.apis?.[fn]?.baseUrl);
  return {
    baseUrl: stripSlash(p.baseUrl ?? p.apis?.ais?.baseUrl ?? found!.baseUrl),
    variantBaseUrls: stripAll(p.variantBaseUrls),
    apis: found ? found.apis : apisOf(p, apiSegments),
    ...(found ? { discovery: { source: p.discovery, notes: found.notes } } : {}),
    implements: found ? { A: found.operations } : implementsOf(p.implements, variants),
    ...(absentApis.length ? { absentApis } : {}),
  };
}

/** What the profile says of the bank itself: its signing keys or certificate, and whether it signs its answers or asks for signed requests. */
async function bankOf(p: Record<string, any>, bankJwks: Awaited<ReturnType<typeof jwksValue>> | undefined, baseDir: string, source: string): Promise<Profile['bank']> {
  return {
    ...(bankJwks ? { jwks: bankJwks } : {}),
    ...(p.bank?.signsAnswers === false ? { signsAnswers: false, signingWaiver: p.bank.signingWaiver } : {}),
    ...(p.bank?.requiresSignedRequests !== undefined ? { requiresSignedRequests: p.bank.requiresSignedRequests } : {}),
    ...(p.bank?.signingCertificate ? { signingCertificate: await certificateValue(p.bank.signingCertificate, '$.bank.signingCertificate', baseDir, source) } : {}),
  };
}

/** The profile's auth block, completed: the client, the redirect URI, and the scopes and intent binding of its standard unless it says its own. */
function authOf(auth: Record<string, any>, clientAuth: Record<string, any>, o: { absent: boolean; registered: boolean; standard: StandardModule; p: Record<string, any>; second?: Profile['auth']['secondClient'] }): Profile['auth'] {
  const { absent, registered, standard, p, second } = o;
  const intentBinding = standard.profile.intentBinding;
  return {
    ...(absent ? { absent: true as const } : {}),
    issuer: auth.issuer ? stripSlash(auth.issuer) : undefined,
    discoveryUrl: auth.discoveryUrl,
    clientId: auth.clientId ?? '',
    clientAuth: clientAuth as Profile['auth']['clientAuth'],
    ...(second ? { secondClient: second } : {}),
    ...(registered ? { clientFrom: 'registration' as const } : {}),
    // TPP-Redirect-URI: the standard's own when given (a bank without OAuth has no other).
    redirectUri: standard.profile.redirectUri?.(p) ?? auth.redirectUri,
    scopes: { ...(standard.profile.scopes ?? DEFAULTS.scopes), ...(auth.scopes ?? {}) },
    intentBinding: auth.intentBinding ?? (intentBinding ? { ...intentBinding } : { method: 'claims' }),
    resource: auth.resource,
    offlineAccess: absent ? false : auth.offlineAccess ?? true,
    par: absent ? 'never' : auth.par ?? 'auto',
    ...(auth.pkce ? { pkce: auth.pkce } : {}),
  };
}

/** The profile's mtls block, each `…File` read. */
async function mtlsOf(p: Record<string, any>, baseDir: string, source: string): Promise<Profile['mtls']> {
  if (!p.mtls) return undefined;
  const mtls = { ...p.mtls };
  for (const k of ['cert', 'key', 'ca'] as const) {
    const fileKey = `${k}File` as const;
    if (mtls[fileKey]) mtls[k] = await readReferenced(mtls[fileKey], `$.mtls.${fileKey}`, baseDir, source);
  }
  return mtls;
}

/** The profile's signing block: the key read, the claims defaulted, the certificate parsed. */
async function signingOf(p: Record<string, any>, clientId: string | undefined, baseDir: string, source: string): Promise<Profile['signing']> {
  if (!p.signing) return undefined;
  return {
    key: await secretValue(p.signing.key, '$.signing.key', baseDir, source),
    kid: p.signing.kid as string,
    issuer: (p.signing.issuer ?? clientId ?? '') as string,
    trustAnchor: (p.signing.trustAnchor ?? 'openbanking.org.uk') as string,
    enabled: p.signing.enabled ?? true,
    ...(p.signing.certificate ? { certificate: await certificateValue(p.signing.certificate, '$.signing.certificate', baseDir, source) } : {}),
  };
}

/** The profile's registration block: the software statement and key read (secrets), the rest defaulted. */
async function registrationOf(p: Record<string, any>, auth: { redirectUri: string; scopes?: Record<string, string> }, baseDir: string, source: string, secrets: Set<string>): Promise<RegistrationSettings> {
  const r = p.registration;
  const ssa = r.softwareStatementFile ? (await readReferenced(r.softwareStatementFile, '$.registration.softwareStatementFile', baseDir, source)).trim() : r.softwareStatement;
  const key = r.keyFile ? await readReferenced(r.keyFile, '$.registration.keyFile', baseDir, source) : r.key;
  for (const s of [ssa, key]) if (s) secrets.add(s);
  return {
    softwareStatement: ssa, ...(key ? { key } : {}), ...(r.kid ? { kid: r.kid } : {}), alg: r.alg ?? 'PS256',
    ...(r.endpoint ? { endpoint: r.endpoint } : {}),
    tokenEndpointAuthMethod: r.tokenEndpointAuthMethod ?? 'client_secret_basic',
    redirectUris: r.redirectUris ?? [auth.redirectUri],
    scope: r.scope ?? ['openid', ...new Set(Object.values({ ...DEFAULTS.scopes, ...(auth.scopes ?? {}) }) as string[])].join(' '),
  };
}

/**
 * The per-API base URLs: the profile's, and for a profile of a published version whose standard
 * places each API below its own segment (UK Read/Write: baseUrl + /aisp, /cbpii or /pisp), each
 * API the profile does not place.
 */
function apisOf(p: Record<string, any>, segments: Readonly<Record<Fn, string>> | undefined): Profile['apis'] {
  const apis: Profile['apis'] = Object.fromEntries(Object.entries(p.apis ?? {}).map(([fn, a]: [string, any]): [string, ApiLocation] => [
    fn, { ...(a.baseUrl ? { baseUrl: stripSlash(a.baseUrl) } : {}), variantBaseUrls: stripAll(a.variantBaseUrls) },
  ]));
  if (segments && p.baseUrl) {
    for (const [fn, segment] of Object.entries(segments) as Array<[Fn, string]>) {
      const given = apis[fn];
      if (!given?.baseUrl && !Object.keys(given?.variantBaseUrls ?? {}).length) apis[fn] = { baseUrl: `${stripSlash(p.baseUrl)}${segment}`, variantBaseUrls: {} };
    }
  }
  return apis;
}

/**
 * What the bank's discovery document says (`discovery:` a file or an http(s) URL, read by its
 * standard's module): each listed API's base URL — the profile's apis, else the document's
 * resourceBaseUri, else baseUrl plus the API's segment — the operations it offers, the APIs it
 * does not offer, and its notes.
 */
async function discover(p: Record<string, any>, standard: StandardModule, paths: ProfilePaths, baseDir: string, source: string) {
  const ref = p.discovery as string;
  const where = `$.discovery (${ref})`;
  const reader = (standard.profile as { discovery?: { version: string; read(doc: unknown, paths: ProfilePaths, where: string): ReturnType<typeof import('../standards/obie/discovery.ts').fromDiscovery> } }).discovery;
  const doc = await discoveryDocument(ref, baseDir, source, p.timeouts?.requestMs ?? DEFAULTS.timeouts.requestMs);
  const found = reader!.read(doc, paths, where);
  const segments = standard.profile.apiSegments?.(reader!.version);
  const given = apisOf(p, undefined);
  const apis: Profile['apis'] = {};
  for (const fn of found.listed) {
    const placed = given[fn]?.baseUrl ?? found.apis[fn] ?? (p.baseUrl && segments ? `${stripSlash(p.baseUrl)}${segments[fn]}` : undefined);
    if (placed) apis[fn] = { ...given[fn], baseUrl: stripSlash(placed), variantBaseUrls: given[fn]?.variantBaseUrls ?? {} };
    else found.problems.push(`${where}: ${fn} has no resourceBaseUri, and the profile gives no baseUrl (or apis.${fn}.baseUrl) to place it`);
  }
  if (!found.problems.length && !apis.ais && !p.baseUrl) found.problems.push(`${where}: lists no Account and Transaction API, and the profile gives no baseUrl`);
  if (found.problems.length) {
    throw new ProfileError(found.problems.map((x) => `profile ${source}: ${x}`).join('\n'), found.problems, { hint: 'the document follows the UK conformance suite\'s discovery shape: discoveryModel.discoveryItems[] with apiSpecification { name, version }, resourceBaseUri and endpoints [{ method, path }]' });
  }
  const absent = (['ais', 'cof', 'pis'] as const).filter((fn) => !apis[fn]);
  return { apis, absent, operations: found.operations, notes: found.notes, baseUrl: apis.ais?.baseUrl ?? Object.values(apis)[0]!.baseUrl! };
}

/** The discovery document's JSON, from a file (`file:PATH` or a path, relative to the profile) or an http(s) URL. */
async function discoveryDocument(ref: string, baseDir: string, source: string, timeoutMs: number): Promise<unknown> {
  let text: string;
  if (/^https?:\/\//i.test(ref)) {
    let res: Response;
    try {
      res = await fetch(ref, { headers: { accept: 'application/json' }, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new BankUnreachableError(`profile ${source}: $.discovery: ${ref} cannot be reached (${((error as Error).cause as Error | undefined)?.message ?? (error as Error).message})`, { cause: error });
    }
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (!res.ok || declared > INPUT_LIMITS.referenced) {
      await res.body?.cancel();
      throw new ProfileError(`profile ${source}: $.discovery: GET ${ref} answered ${res.status}${res.ok ? `, ${declared} bytes (over ${INPUT_LIMITS.referenced})` : ''}`, ['$.discovery']);
    }
    text = await res.text();
    if (Buffer.byteLength(text) > INPUT_LIMITS.referenced) throw new ProfileError(`profile ${source}: $.discovery: ${ref} is over ${INPUT_LIMITS.referenced} bytes`, ['$.discovery']);
  } else {
    text = await readReferenced(ref.replace(/^file:/, ''), '$.discovery', baseDir, source);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ProfileError(`profile ${source}: $.discovery: ${ref} is not JSON (${(error as Error).message})`, ['$.discovery']);
  }
}

/**
 * What the schema cannot say of a `security` block: the combinations no authorisation server can
 * serve (the hybrid flow answers in the fragment, never in the query or as a JWT: FAPI 1.0
 * Advanced 5.2.2 offers JARM for `code` only).
 */
function securityProblems(security: unknown): string[] {
  if (!security || typeof security !== 'object') return [];
  const s = security as { responseType?: string; responseMode?: string };
  if (s.responseType === 'code id_token' && s.responseMode !== undefined && s.responseMode !== 'fragment') {
    return [`$.security.responseMode: ${s.responseMode} cannot carry a code id_token answer (the hybrid flow answers in the fragment; JARM is for response_type code)`];
  }
  return [];
}

/** Profiles this module validated and completed (a raw object handed to the library is validated first). */
const completed = new WeakSet<object>();

/** Whether `value` is a profile that {@link profileFromObject} or {@link loadProfile} made. */
export function isCompletedProfile(value: unknown): value is Profile {
  return typeof value === 'object' && value !== null && completed.has(value);
}

/**
 * The resource base URL for one variant and, when given, one API: apis.fn.variantBaseUrls.variant,
 * else apis.fn.baseUrl, else variantBaseUrls.variant, else baseUrl.
 */
export function baseUrlFor(profile: Profile, variant: Variant, fn?: Fn): string {
  const api = fn ? profile.apis?.[fn] : undefined;
  return api?.variantBaseUrls[variant] ?? api?.baseUrl ?? profile.variantBaseUrls[variant] ?? profile.baseUrl;
}

/**
 * An account choice from its written form: `all`, `first`, `first:N`, or a list of names
 * (AccountIds, identifications, account names). A single word that is none of the keywords is one name.
 */
export function parseAccountChoice(value: string | readonly string[] | undefined): AccountChoice | undefined {
  if (value === undefined) return undefined;
  const list = typeof value === 'string' ? [value] : [...value];
  if (list.length === 0) return undefined;
  if (list.length === 1) {
    const w = list[0]!.trim();
    if (w === 'all') return { pick: 'all' };
    if (w === 'first') return { pick: 'first' };
    const n = /^first:([1-9]\d*)$/.exec(w);
    if (n) return { pick: 'first-n', n: Number(n[1]) };
  }
  return { ids: list };
}

function implementsOf(raw: unknown, variants: Variant[]): Partial<Record<Variant, OperationName[]>> | undefined {
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) return Object.fromEntries(variants.map((v) => [v, [...raw] as OperationName[]]));
  return { ...(raw as Partial<Record<Variant, OperationName[]>>) };
}

function stripAll(urls: Record<string, string> | undefined): Partial<Record<Variant, string>> {
  return Object.fromEntries(Object.entries(urls ?? {}).map(([k, v]) => [k, stripSlash(v)]));
}

const ENV_REF = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;

function interpolate(value: unknown, path: string, env: Record<string, string | undefined>, problems: string[], secrets: Set<string>): unknown {
  if (typeof value === 'string') {
    let usedEnv = false;
    const out = value.replace(ENV_REF, (_m, name: string) => {
      usedEnv = true;
      const v = env[name];
      if (v === undefined || v === '') {
        problems.push(`${path}: environment variable ${name} is not set (referenced as \${env:${name}})`);
        return '';
      }
      return v;
    });
    // Anything that came from the environment is treated as a secret for redaction, except URLs
    // and file names (the files' contents are what is secret, and a user checking a profile
    // needs to see which file was used).
    if (usedEnv && out.length >= 4 && !/^https?:\/\//.test(out) && !/File$/.test(path)) secrets.add(out);
    return out;
  }
  if (Array.isArray(value)) return value.map((v, i) => interpolate(v, `${path}[${i}]`, env, problems, secrets));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, `${path}.${k}`, env, problems, secrets)]));
  }
  return value;
}

let compiled: ((data: unknown) => boolean) & { errors?: any[] | null } | undefined;
/** The registry's generation the validator was made for: a standard registered since needs a new one. */
let compiledFor = -1;

async function validate(data: unknown): Promise<string[]> {
  if (!compiled || compiledFor !== registryGeneration()) {
    compiledFor = registryGeneration();
    // The build compiles the schema of the package's standards to standalone code beside this
    // file (dist/); from the sources, or with a standard registered since, ajv compiles it here.
    // Same schema, same errors.
    compiled = compiledFor === 0 ? buildOutput<typeof compiled>(new URL('./profile-validator.cjs', import.meta.url)) : undefined;
    if (!compiled) {
      const { Ajv } = await import('ajv');
      const ajv = new Ajv({ allErrors: true, strict: false });
      compiled = ajv.compile(compiledFor === 0 ? profileSchema : profileSchemaOf(standards())) as unknown as typeof compiled;
    }
  }
  if (compiled!(data)) return [];
  const seen = new Set<string>();
  const out: string[] = [];
  const errors = compiled!.errors ?? [];
  // An unmet anyOf is reported once, as its own sentence, not once per branch as well.
  const anyOfAt = new Set(errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.instancePath));
  for (const e of errors) {
    if (e.keyword === 'if' || e.keyword === 'allOf') continue;
    if (e.keyword !== 'anyOf' && e.keyword !== 'oneOf' && /\/(anyOf|oneOf)\//.test(String(e.schemaPath)) && anyOfAt.has(e.instancePath)) continue;
    const line = describe(e);
    if (!seen.has(line)) {
      seen.add(line);
      out.push(line);
    }
  }
  return out;
}

function jsonPath(instancePath: string): string {
  if (!instancePath) return '$';
  return '$' + instancePath.split('/').slice(1).map((seg) => (/^\d+$/.test(seg) ? `[${seg}]` : `.${seg.replace(/~1/g, '/').replace(/~0/g, '~')}`)).join('');
}

function describe(e: { keyword: string; instancePath: string; message?: string; params: Record<string, any> }): string {
  const at = jsonPath(e.instancePath);
  switch (e.keyword) {
    case 'required':
      return `${at === '$' ? '$' : at}.${e.params.missingProperty}: is required but missing`;
    case 'additionalProperties':
      return `${at === '$' ? '$' : at}.${e.params.additionalProperty}: unknown field (not allowed here)`;
    case 'type':
      return `${at}: expected ${e.params.type}`;
    case 'enum':
      return `${at}: expected one of ${e.params.allowedValues.map((v: unknown) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `${at}: expected ${JSON.stringify(e.params.allowedValue)}`;
    case 'pattern':
      if (e.params.pattern === '^https?://[^\\s]+$') return `${at}: expected an absolute http(s) URL`;
      if (e.params.pattern === '^/[^\\s]*$') return `${at}: expected a path starting with /`;
      return `${at}: expected a value matching ${e.params.pattern}`;
    case 'minItems':
      return `${at}: expected at least ${e.params.limit} item(s)`;
    case 'minLength':
      return `${at}: expected a non-empty string`;
    case 'anyOf':
      if (at === '$') return '$.baseUrl: is required, unless apis gives a baseUrl to ais and to each other API the bank offers';
      return `${at}: ${at === '$.auth' ? 'expected issuer or discoveryUrl' : at === '$.auth.clientAuth' ? 'expected privateKey or privateKeyFile' : 'expected one of the allowed forms'}`;
    case 'oneOf':
      if (at === '$.implements') return `${at}: expected a list of operation names, or { A: [...], B: [...] }`;
      if (at === '$.psu.accounts') return `${at}: expected all, first, first:N, or a list of account names`;
      if (at === '$.security') return `${at}: expected fapi1-advanced, fapi2, fapi2-message-signing or oauth2, or an object { profile, responseType, responseMode, par, requestObject, pkce, senderConstraint, issParameter, acr, dpopAlg }`;
      return `${at}: expected one of the allowed forms`;
    default:
      return `${at}: ${e.message ?? 'is invalid'}`;
  }
}

async function readReferenced(file: string, at: string, baseDir: string, source: string): Promise<string> {
  const full = isAbsolute(file) ? file : resolve(baseDir, file);
  try {
    return await readInputFile(full, INPUT_LIMITS.referenced);
  } catch (error) {
    throw new ProfileError(`profile ${source}: ${at}: file ${full} cannot be read (${(error as Error).message})`, [at]);
  }
}

/** A secret given inline (often `${env:NAME}`) or as `file:PATH` (read, relative to the profile). */
async function secretValue(value: string, at: string, baseDir: string, source: string): Promise<string> {
  return value.startsWith('file:') ? readReferenced(value.slice('file:'.length), at, baseDir, source) : value;
}

/** A PEM certificate, inline or `file:PATH`, parsed now: one that is not a certificate is a profile error naming the field. */
async function certificateValue(value: string, at: string, baseDir: string, source: string): Promise<string> {
  const text = value.startsWith('file:') ? await readReferenced(value.slice(5), at, baseDir, source) : value;
  try {
    new X509Certificate(text);
  } catch {
    throw new ProfileError(`profile ${source}: ${at}: not a PEM certificate ("-----BEGIN CERTIFICATE-----")`, [at]);
  }
  return text;
}

/** The bank's JWKS: a URL (fetched when needed), or a file (`file:PATH` or a path) read and parsed now. */
async function jwksValue(value: string, baseDir: string, source: string): Promise<string | { keys: Record<string, unknown>[] }> {
  if (/^https?:\/\//.test(value)) return value;
  const text = await readReferenced(value.replace(/^file:/, ''), '$.bank.jwks', baseDir, source);
  try {
    const doc = JSON.parse(text) as { keys?: unknown };
    if (!Array.isArray(doc.keys)) throw new Error('no keys array');
    return doc as { keys: Record<string, unknown>[] };
  } catch {
    throw new ProfileError(`profile ${source}: $.bank.jwks: the file is not a JWKS document ({"keys": [...]})`, ['$.bank.jwks']);
  }
}

function stripSlash(u: string): string {
  return u.replace(/\/+$/, '');
}
