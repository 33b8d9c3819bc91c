import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { INPUT_LIMITS, readInputFile } from '../profile/input-files.ts';
import { isAbsolute, resolve } from 'node:path';
import { calculateJwkThumbprint, exportJWK, type JWK } from 'jose';
import { ObtppError, UsageError, ExitCode } from '../errors.ts';

/** The JWS algorithms an attestation may use: one per kind of key, chosen from the key. */
export const ATTESTATION_ALGS = ['PS256', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;

export interface SigningKey {
  key: KeyObject;
  alg: (typeof ATTESTATION_ALGS)[number];
  /** RFC 7638 thumbprint (SHA-256) of the public key. */
  thumbprint: string;
  /** The JWK's own kid, when the key came as a JWK with one. */
  kid?: string;
}

/** Reads `--attest KEY`: a file path, or `${env:NAME}` (the key itself in the environment, as profiles take secrets). */
export async function readKeyInput(spec: string, options: { env: Record<string, string | undefined>; cwd: string; what?: string }): Promise<string> {
  const what = options.what ?? '--attest';
  const ref = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(spec.trim());
  if (ref) {
    const value = options.env[ref[1]!];
    if (!value) throw new UsageError(`${what}: environment variable ${ref[1]} is not set (referenced as \${env:${ref[1]}})`);
    return value;
  }
  const file = isAbsolute(spec) ? spec : resolve(options.cwd, spec);
  try {
    // A regular file of bounded size only: a FIFO or /dev/zero given as the key would hang the run.
    return await readInputFile(file, INPUT_LIMITS.key);
  } catch (error) {
    throw new UsageError(`${what}: cannot read the key file ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
  }
}

function parseJwk(text: string): (JWK & { kid?: string }) | undefined {
  const t = text.trim();
  if (!t.startsWith('{')) return undefined;
  try {
    return JSON.parse(t) as JWK;
  } catch {
    return undefined;
  }
}

function algFor(key: KeyObject): SigningKey['alg'] {
  switch (key.asymmetricKeyType) {
    case 'rsa':
    case 'rsa-pss':
      return 'PS256';
    case 'ec': {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      if (curve === 'prime256v1' || curve === 'P-256') return 'ES256';
      if (curve === 'secp384r1' || curve === 'P-384') return 'ES384';
      if (curve === 'secp521r1' || curve === 'P-521') return 'ES512';
      throw new UsageError(`an EC key on curve ${curve} cannot sign an attestation (use P-256, P-384 or P-521)`);
    }
    case 'ed25519':
      return 'EdDSA';
    default:
      throw new UsageError(`a ${key.asymmetricKeyType ?? 'symmetric'} key cannot sign an attestation (use RSA, EC P-256 or Ed25519)`);
  }
}

export async function thumbprintOf(key: KeyObject): Promise<string> {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  return calculateJwkThumbprint(await exportJWK(pub), 'sha256');
}

/** A private key from PEM (PKCS#8, PKCS#1, SEC1) or JWK text. Its text never appears in an error. */
export async function loadSigningKey(text: string): Promise<SigningKey> {
  const jwk = parseJwk(text);
  let key: KeyObject;
  try {
    key = jwk ? createPrivateKey({ key: jwk as never, format: 'jwk' }) : createPrivateKey(text);
  } catch {
    throw new UsageError('the attestation key is not a private key in PEM or JWK form');
  }
  const alg = algFor(key);
  return { key, alg, thumbprint: await thumbprintOf(key), kid: jwk?.kid };
}

/** A public key (or certificate, or a private key whose public half is meant) from PEM or JWK text. */
export async function loadVerificationKey(text: string): Promise<{ key: KeyObject; thumbprint: string; kid?: string }> {
  const jwk = parseJwk(text);
  let key: KeyObject;
  try {
    if (jwk) {
      const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = jwk;
      key = createPublicKey({ key: pub as never, format: 'jwk' });
    } else key = createPublicKey(text);
  } catch {
    throw new UsageError('--key: not a public key, certificate or private key in PEM or JWK form');
  }
  if ((jwk as { keys?: unknown } | undefined)?.keys) throw new UsageError('--key: this is a JWKS; pass it with --jwks');
  return { key, thumbprint: await thumbprintOf(key), kid: jwk?.kid };
}

export interface Jwks { keys: Array<JWK & { kid?: string }> }

/** A JWKS from a URL (fetched once; the only network use of verify) or from JSON text. */
export async function loadJwks(source: string, fetchImpl: typeof fetch = fetch): Promise<Jwks> {
  let text = source;
  if (/^https?:\/\//i.test(source.trim())) {
    try {
      const res = await fetchImpl(source.trim(), { signal: AbortSignal.timeout(10_000), headers: { accept: 'application/jwk-set+json, application/json' } });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      text = await res.text();
    } catch (error) {
      throw new ObtppError('jwks_unreachable', `--jwks: cannot fetch ${source.trim()} (${(error as Error).message})`, { exitCode: ExitCode.cannotRun, cause: error });
    }
  }
  let jwks: Jwks;
  try {
    jwks = JSON.parse(text) as Jwks;
  } catch {
    throw new UsageError('--jwks: not a JSON Web Key Set (not JSON)');
  }
  if (!jwks || !Array.isArray(jwks.keys)) throw new UsageError('--jwks: not a JSON Web Key Set (no "keys" array)');
  return jwks;
}

/** The keys of a JWKS that may have signed: by kid, or by the thumbprint the attestation names. */
export async function candidatesFromJwks(jwks: Jwks, header: { kid?: string; jkt?: string }): Promise<Array<{ key: KeyObject; thumbprint: string; kid?: string }>> {
  const out: Array<{ key: KeyObject; thumbprint: string; kid?: string }> = [];
  for (const jwk of jwks.keys) {
    if (jwk.use && jwk.use !== 'sig') continue;
    let key: KeyObject;
    try {
      const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = jwk;
      key = createPublicKey({ key: pub as never, format: 'jwk' });
    } catch {
      continue;
    }
    const thumbprint = await thumbprintOf(key);
    if ((header.kid && jwk.kid === header.kid) || (header.jkt && thumbprint === header.jkt)) out.push({ key, thumbprint, kid: jwk.kid });
  }
  return out;
}
