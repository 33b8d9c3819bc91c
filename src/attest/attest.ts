import { writeFile, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CompactSign, compactVerify, decodeProtectedHeader } from 'jose';
import type { Profile } from '../profile/types.ts';
import { maskProfile } from '../profile/mask.ts';
import { UsageError } from '../errors.ts';
import { baseStandard, findStandard } from '../standards/registry.ts';
import { canonicalJson, digestTree, packageDigest, sha256, type FileDigest, type PackageDigest } from './digest.ts';
import { ATTESTATION_ALGS, candidatesFromJwks, loadJwks, loadSigningKey, loadVerificationKey, type Jwks } from './keys.ts';

/** The file an attestation is written to, in the report dir. */
export const ATTESTATION_FILE = 'attestation.jws';
/** The JOSE `typ` of an attestation: a verifier refuses any other signed document. */
export const ATTESTATION_TYP = 'obtpp-attestation+jws';
const MANIFEST_TYPE = 'obtpp-attestation/v1';


/** What an attestation needs of a summary (summary.json's shape; newer optional fields are ignored). */
export interface SummaryLike {
  verdict: string;
  startedAt?: string;
  durationMs?: number;
  profile?: string;
  tool?: { version?: string };
  variants: Array<{ variant: string; rules: Array<{ id: string; status: string; verdict?: string }> }>;
}

export interface AttestedRule {
  id: string;
  variant: string;
  status: string;
  /** The rule's verdict in words, where it says more than its status (a pass on part of its scenarios). */
  verdict?: string;
}

/** The signed payload: everything a reader needs to trust a report folder without trusting its holder. */
export interface Manifest {
  type: typeof MANIFEST_TYPE;
  tool: { name: string; version: string; package?: PackageDigest };
  standard: { dialect: string; name: string; version: string; text: string };
  profile: {
    /** SHA-256 of the canonical JSON of the profile with every secret masked and `source` left out. */
    sha256: string;
    covers: string;
    name?: string;
    dialect?: string;
    variants?: string[];
    baseUrl?: string;
    variantBaseUrls?: Record<string, string>;
    issuer?: string;
    discoveryUrl?: string;
    clientId?: string;
    /** Public fields left out because their value is (or holds) one of the profile's secrets. */
    withheld?: string[];
    /** The run's label for the profile (e.g. `embedded sandbox (faults: …)`). */
    label?: string;
  };
  run: { startedAt: string; endedAt: string };
  verdict: string;
  rules: AttestedRule[];
  /** The Gherkin that ran (the report dir's features/**, as instantiated per variant). */
  features: FileDigest[];
  /** Every file of the report dir but the attestation itself. */
  files: FileDigest[];
  signedAt: string;
}

export interface AttestationMeta {
  summary: SummaryLike;
  /** The loaded profile (the embedded sandbox's too): its secrets never reach the manifest. */
  profile?: Profile;
  /** When the run ended; default: startedAt + durationMs of the summary. */
  endedAt?: Date | string;
  /** The obtpp version; default: the summary's tool.version, else the package's. */
  version?: string;
  /** Default: the profile's dialect, else obie. */
  dialect?: string;
}

export interface CreateAttestationOptions {
  reportDir: string;
  /** The signing key, PEM (PKCS#8, PKCS#1, SEC1) or JWK text: RSA signs PS256, EC P-256 ES256, Ed25519 EdDSA. */
  privateKey: string;
  /** Default: the JWK's own kid, else the RFC 7638 thumbprint of the public key. */
  kid?: string;
  meta: AttestationMeta;
  now?: Date;
}

/** The profile's public face and digest; every secret it carries is dropped, not hashed alone. */
export function profileEntry(profile: Profile | undefined, label?: string): Manifest['profile'] {
  if (!profile) return { sha256: sha256('null'), covers: 'no profile was given', label };
  const { source: _source, ...masked } = maskProfile(profile);
  const secrets = profile.secrets;
  const holdsSecret = (v: unknown): boolean => {
    const text = typeof v === 'string' ? v : JSON.stringify(v ?? '');
    return secrets.some((s) => s && text.includes(s));
  };
  const candidates: Record<string, unknown> = {
    name: profile.name,
    dialect: profile.dialect,
    variants: profile.variants,
    baseUrl: profile.baseUrl,
    variantBaseUrls: Object.keys(profile.variantBaseUrls ?? {}).length ? profile.variantBaseUrls : undefined,
    issuer: profile.auth.issuer,
    discoveryUrl: profile.auth.discoveryUrl,
    clientId: profile.auth.clientId,
  };
  const entry: Record<string, unknown> = {
    sha256: sha256(canonicalJson(masked)),
    covers: 'canonical JSON (keys sorted) of the profile as `obtpp profile check --json` prints it — secrets masked — without its `source` field',
  };
  const withheld: string[] = [];
  for (const [k, v] of Object.entries(candidates)) {
    if (v === undefined) continue;
    if (holdsSecret(v)) withheld.push(k);
    else entry[k] = v;
  }
  if (withheld.length) entry.withheld = withheld;
  if (label && label !== profile.name) entry.label = label;
  return entry as Manifest['profile'];
}

function standardOf(dialect: string): Manifest['standard'] {
  // The published standard the dialect judges against, as the attestation names it (the registry's words).
  const s = findStandard(dialect)?.attested ?? { name: dialect, version: 'unversioned' };
  return { dialect, ...s, text: `${s.name} v${s.version}` };
}

/** Builds the manifest of a report dir (without signing it). */
export async function buildManifest(reportDir: string, meta: AttestationMeta, now = new Date()): Promise<Manifest> {
  const files = await digestTree(reportDir, [ATTESTATION_FILE]);
  const pkg = await packageDigest();
  const s = meta.summary;
  const startedAt = s.startedAt ?? now.toISOString();
  const endedAt = meta.endedAt
    ? new Date(meta.endedAt).toISOString()
    : s.startedAt && typeof s.durationMs === 'number' ? new Date(Date.parse(s.startedAt) + s.durationMs).toISOString() : now.toISOString();
  const dialect = meta.dialect ?? meta.profile?.dialect ?? baseStandard().name;
  return {
    type: MANIFEST_TYPE,
    tool: { name: 'obtpp', version: meta.version ?? s.tool?.version ?? pkg?.version ?? '0.0.0', package: pkg },
    standard: standardOf(dialect),
    profile: profileEntry(meta.profile, s.profile),
    run: { startedAt, endedAt },
    verdict: s.verdict,
    rules: s.variants.flatMap((v) => v.rules.map((r) => ({
      id: r.id, variant: v.variant, status: r.status,
      // A partial pass is signed as the user read it, never as a plain pass.
      ...(typeof r.verdict === 'string' && r.status === 'passed' && r.verdict !== 'pass' ? { verdict: r.verdict } : {}),
    }))),
    features: files.filter((f) => f.path.startsWith('features/')),
    files,
    signedAt: now.toISOString(),
  };
}

/**
 * Signs the report dir: writes `attestation.jws`, a compact JWS whose payload is the manifest.
 * Call it last — any file written after it makes the folder fail verification.
 */
export async function createAttestation(options: CreateAttestationOptions): Promise<{ file: string; manifest: Manifest; kid: string; alg: string; thumbprint: string }> {
  const signing = await loadSigningKey(options.privateKey);
  const manifest = await buildManifest(options.reportDir, options.meta, options.now);
  const kid = options.kid ?? signing.kid ?? signing.thumbprint;
  const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(manifest)))
    .setProtectedHeader({ alg: signing.alg, typ: ATTESTATION_TYP, kid, jkt: signing.thumbprint })
    .sign(signing.key);
  const file = join(options.reportDir, ATTESTATION_FILE);
  await writeFile(file, jws + '\n');
  return { file, manifest, kid, alg: signing.alg, thumbprint: signing.thumbprint };
}

export type MismatchReason = 'changed' | 'missing' | 'extra';

export interface VerifyOptions {
  /** A public key (or certificate) as PEM or JWK text. */
  key?: string;
  /** A JWKS: an http(s) URL, JSON text, or the parsed set. */
  jwks?: string | Jwks;
  fetch?: typeof fetch;
}

export interface VerifyResult {
  ok: boolean;
  /** What the signature says, when it holds. */
  signature: 'valid' | 'bad' | 'wrong-key' | 'malformed' | 'absent';
  /** One line saying what is wrong, when something is. */
  problem?: string;
  verdict?: string;
  rules?: AttestedRule[];
  manifest?: Manifest;
  kid?: string;
  alg?: string;
  firstMismatch?: { file: string; reason: MismatchReason };
  mismatches?: Array<{ file: string; reason: MismatchReason }>;
  /** Whether this installation of obtpp is the package the run used (information, not a failure). */
  samePackage?: boolean;
}

/**
 * Checks an attested report dir offline: the signature against the key given (a JWKS URL is the
 * one fetch), then the digest of every file. A signature that does not hold ends the check: a
 * manifest nobody vouches for says nothing about the files.
 */
export async function verifyAttestation(dir: string, options: VerifyOptions): Promise<VerifyResult> {
  if (!options.key && !options.jwks) throw new UsageError('verify needs the signer\'s public key: --key FILE or --jwks URL-or-file');
  const read = await readAttestation(dir);
  if ('failed' in read) return read.failed;
  const { jws, header } = read;
  const candidates = await signerKeys(header, options);
  if ('failed' in candidates) return candidates.failed;
  const signed = await signedManifest(jws, header, candidates.keys);
  if ('failed' in signed) return signed.failed;
  const { manifest } = signed;
  const mismatches = await mismatchesOf(dir, manifest);
  const here = await packageDigest().catch(() => undefined);
  const result: VerifyResult = {
    ok: mismatches.length === 0,
    signature: 'valid',
    verdict: manifest.verdict,
    rules: manifest.rules,
    manifest,
    kid: header.kid,
    alg: header.alg,
    samePackage: here && manifest.tool.package ? here.sha256 === manifest.tool.package.sha256 : undefined,
  };
  if (mismatches.length) {
    result.firstMismatch = mismatches[0];
    result.mismatches = mismatches;
    const m = mismatches[0]!;
    result.problem = `${m.file}: ${m.reason === 'changed' ? 'changed since it was signed' : m.reason === 'missing' ? 'attested but missing' : 'not attested (added after signing)'}${mismatches.length > 1 ? ` (and ${mismatches.length - 1} more file(s) differ)` : ''}`;
  }
  return result;
}

/** A check that ends the verification, with what it found. */
type Failed = { failed: VerifyResult };
type AttestationHeader = { alg?: string; typ?: string; kid?: string; jkt?: string };
type Candidate = { key: import('node:crypto').KeyObject; thumbprint: string; kid?: string };

/** The report dir's attestation: a compact JWS of obtpp's type, and its protected header. */
async function readAttestation(dir: string): Promise<{ jws: string; header: AttestationHeader } | Failed> {
  const file = join(dir, ATTESTATION_FILE);
  if (!existsSync(file)) return { failed: { ok: false, signature: 'absent', problem: `${file}: no attestation in this folder (was the run made with --attest?)` } };
  const jws = (await readFile(file, 'utf8')).trim();
  let header: AttestationHeader;
  try {
    if (jws.split('.').length !== 3) throw new Error('not a compact JWS');
    header = decodeProtectedHeader(jws) as AttestationHeader;
  } catch {
    return { failed: { ok: false, signature: 'malformed', problem: `${ATTESTATION_FILE}: not a compact JWS` } };
  }
  if (header.typ !== ATTESTATION_TYP) return { failed: { ok: false, signature: 'malformed', problem: `${ATTESTATION_FILE}: not an obtpp attestation (typ ${JSON.stringify(header.typ)})` } };
  return { jws, header };
}

/** The keys that may have signed it: the key given (when its thumbprint is the signer's), or the JWKS's keys that match the signer. */
async function signerKeys(header: AttestationHeader, options: VerifyOptions): Promise<{ keys: Candidate[] } | Failed> {
  const signer = `kid ${header.kid ?? '(none)'}${header.jkt && header.jkt !== header.kid ? `, thumbprint ${header.jkt}` : ''}`;
  if (options.key) {
    const k = await loadVerificationKey(options.key);
    if (header.jkt && k.thumbprint !== header.jkt) {
      return { failed: { ok: false, signature: 'wrong-key', kid: header.kid, problem: `wrong key: the attestation was signed by ${signer}; the key given has thumbprint ${k.thumbprint}` } };
    }
    return { keys: [k] };
  }
  const jwks = typeof options.jwks === 'string' ? await loadJwks(options.jwks, options.fetch) : options.jwks!;
  const keys = await candidatesFromJwks(jwks, header);
  if (!keys.length) return { failed: { ok: false, signature: 'wrong-key', kid: header.kid, problem: `wrong key: no key of the JWKS matches the signer (${signer})` } };
  return { keys };
}

/** The manifest the signature vouches for: verified with one of the keys, and of obtpp's manifest type. */
async function signedManifest(jws: string, header: AttestationHeader, candidates: Candidate[]): Promise<{ manifest: Manifest } | Failed> {
  let payload: Uint8Array | undefined;
  for (const c of candidates) {
    try {
      payload = (await compactVerify(jws, c.key, { algorithms: [...ATTESTATION_ALGS] })).payload;
      break;
    } catch {
      /* the next candidate, if any */
    }
  }
  if (!payload) return { failed: { ok: false, signature: 'bad', kid: header.kid, alg: header.alg, problem: `bad signature: ${ATTESTATION_FILE} was altered after signing (its header, manifest or signature), or signed by another key` } };
  try {
    const manifest = JSON.parse(new TextDecoder().decode(payload)) as Manifest;
    if (manifest.type !== MANIFEST_TYPE || !Array.isArray(manifest.files)) throw new Error('shape');
    return { manifest };
  } catch {
    return { failed: { ok: false, signature: 'malformed', problem: `${ATTESTATION_FILE}: the signed payload is not an obtpp manifest` } };
  }
}

/** The files that differ from the manifest (changed, missing, or not attested), in path order. */
async function mismatchesOf(dir: string, manifest: Manifest): Promise<Array<{ file: string; reason: MismatchReason }>> {
  const onDisk = new Map((await digestTree(dir, [ATTESTATION_FILE])).map((f) => [f.path, f]));
  const attested = new Map(manifest.files.map((f) => [f.path, f]));
  const paths = [...new Set([...onDisk.keys(), ...attested.keys()])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const mismatches: Array<{ file: string; reason: MismatchReason }> = [];
  for (const p of paths) {
    const now = onDisk.get(p);
    const then = attested.get(p);
    if (!now) mismatches.push({ file: p, reason: 'missing' });
    else if (!then) mismatches.push({ file: p, reason: 'extra' });
    else if (now.sha256 !== then.sha256) mismatches.push({ file: p, reason: 'changed' });
  }
  return mismatches;
}
