/**
 * `x-jws-signature`, UK Open Banking v3.1 message signing (FACTS §1.8): a detached JWS (RFC 7515
 * App. F) over the raw body, PS256, with `kid` and the critical claims
 * `http://openbanking.org.uk/iat`, `…/iss` and `…/tan` listed in `crit`. From v3.1.4 the payload is
 * base64url-encoded as any JWS (no `b64: false`), which is what v3.1.11 and this module do.
 * jose signs and verifies; this module only assembles the header and checks the claims.
 */
import { FlattenedSign, flattenedVerify, createLocalJWKSet, createRemoteJWKSet, importPKCS8, importJWK, errors as joseErrors } from 'jose';
import type { JSONWebKeySet, JWK, FlattenedJWSInput, JWSHeaderParameters, FlattenedVerifyGetKey } from 'jose';

export const OB_IAT = 'http://openbanking.org.uk/iat';
export const OB_ISS = 'http://openbanking.org.uk/iss';
export const OB_TAN = 'http://openbanking.org.uk/tan';
/** The critical claims, exactly as `crit` must list them. */
export const OB_CRIT = [OB_IAT, OB_ISS, OB_TAN] as const;
/** The trust anchor when the profile names none. */
export const DEFAULT_TRUST_ANCHOR = 'openbanking.org.uk';

/** A private key that signs messages, with the claims it puts in every header. */
export interface MessageSigner {
  key: CryptoKey;
  kid: string;
  issuer: string;
  trustAnchor: string;
}

/** Imports a PKCS#8 PEM or a private JWK (JSON text) for PS256. The key never appears in an error. */
export async function importMessageKey(text: string): Promise<CryptoKey> {
  const t = text.trim();
  const key = t.startsWith('{') ? await importJWK(JSON.parse(t) as JWK, 'PS256') : await importPKCS8(t, 'PS256');
  if (key instanceof Uint8Array) throw new Error('a symmetric key cannot sign messages');
  return key;
}

/** The detached `x-jws-signature` of a body (`protected..signature`). */
export async function signDetached(body: string, signer: MessageSigner, now = Date.now()): Promise<string> {
  const jws = await new FlattenedSign(new TextEncoder().encode(body))
    .setProtectedHeader({
      alg: 'PS256', kid: signer.kid, typ: 'JOSE', cty: 'application/json',
      [OB_IAT]: Math.floor(now / 1000), [OB_ISS]: signer.issuer, [OB_TAN]: signer.trustAnchor,
      crit: [...OB_CRIT],
    })
    .sign(signer.key, { crit: { [OB_IAT]: true, [OB_ISS]: true, [OB_TAN]: true } });
  return `${jws.protected}..${jws.signature}`;
}

/** The outcome of checking a message's signature. */
export type SignatureCheck =
  | { valid: true; kid: string; header: JWSHeaderParameters }
  | { valid: false; code: 'Missing' | 'Malformed' | 'MissingClaim' | 'InvalidClaim' | 'Invalid'; problem: string };

/** Where the other side's public keys come from: a JWKS document (URL or already read) or a key lookup. */
export type KeySource = FlattenedVerifyGetKey;

/** A key lookup over a JWKS document, or a JWKS URL (fetched and cached by jose, with a time-out, through the global fetch). */
export function jwksSource(jwks: string | JSONWebKeySet, options: { timeoutMs?: number } = {}): KeySource {
  if (typeof jwks === 'string') return createRemoteJWKSet(new URL(jwks), { timeoutDuration: options.timeoutMs ?? 5_000 }) as KeySource;
  return createLocalJWKSet(jwks) as KeySource;
}

/**
 * Checks a detached `x-jws-signature` against the raw body: its form, PS256, the critical claims
 * (present, listed in `crit` exactly, of the right types), and the signature with the key of its kid.
 * `code` is the standard's `UK.OBIE.Signature.*` suffix for what is wrong.
 */
export async function verifyDetached(header: string | undefined, body: string, keys: KeySource): Promise<SignatureCheck> {
  if (header === undefined || header.trim() === '') return { valid: false, code: 'Missing', problem: 'no x-jws-signature header' };
  const parts = header.trim().split('.');
  if (parts.length !== 3 || parts[1] !== '' || !parts[0] || !parts[2]) {
    return { valid: false, code: 'Malformed', problem: 'x-jws-signature is not a detached JWS (protected..signature)' };
  }
  let protectedHeader: Record<string, unknown>;
  try {
    protectedHeader = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    if (!protectedHeader || typeof protectedHeader !== 'object') throw new Error('not an object');
  } catch {
    return { valid: false, code: 'Malformed', problem: 'the protected header of x-jws-signature is not base64url JSON' };
  }
  if (protectedHeader.alg !== 'PS256') return { valid: false, code: 'InvalidClaim', problem: `alg is ${JSON.stringify(protectedHeader.alg)}, not PS256` };
  if (typeof protectedHeader.kid !== 'string' || !protectedHeader.kid) return { valid: false, code: 'MissingClaim', problem: 'the header has no kid' };
  if (protectedHeader.b64 === false) return { valid: false, code: 'InvalidClaim', problem: 'b64: false is not used from v3.1.4 on' };
  for (const claim of OB_CRIT) {
    if (protectedHeader[claim] === undefined) return { valid: false, code: 'MissingClaim', problem: `the header lacks ${claim}` };
  }
  const crit = protectedHeader.crit;
  if (!Array.isArray(crit) || crit.length !== OB_CRIT.length || !OB_CRIT.every((c) => crit.includes(c))) {
    return { valid: false, code: 'InvalidClaim', problem: `crit must list exactly ${OB_CRIT.join(', ')}; got ${JSON.stringify(crit)}` };
  }
  if (typeof protectedHeader[OB_IAT] !== 'number' || !Number.isFinite(protectedHeader[OB_IAT])) return { valid: false, code: 'InvalidClaim', problem: `${OB_IAT} is not a number of seconds` };
  if (typeof protectedHeader[OB_ISS] !== 'string' || !protectedHeader[OB_ISS]) return { valid: false, code: 'InvalidClaim', problem: `${OB_ISS} is not a string` };
  if (typeof protectedHeader[OB_TAN] !== 'string' || !protectedHeader[OB_TAN]) return { valid: false, code: 'InvalidClaim', problem: `${OB_TAN} is not a string` };
  const jws: FlattenedJWSInput = { protected: parts[0], payload: Buffer.from(body, 'utf8').toString('base64url'), signature: parts[2] };
  try {
    const result = await flattenedVerify(jws, keys, {
      algorithms: ['PS256'],
      crit: { [OB_IAT]: true, [OB_ISS]: true, [OB_TAN]: true },
    });
    return { valid: true, kid: protectedHeader.kid, header: result.protectedHeader ?? {} };
  } catch (error) {
    if (error instanceof joseErrors.JWKSNoMatchingKey) return { valid: false, code: 'Invalid', problem: `no key with kid ${JSON.stringify(protectedHeader.kid)} in the JWKS` };
    if (error instanceof joseErrors.JWSSignatureVerificationFailed) return { valid: false, code: 'Invalid', problem: 'the signature does not verify over the body with the key of its kid' };
    if (error instanceof joseErrors.JWKSTimeout || (error as { code?: string }).code === 'ERR_JOSE_GENERIC' || error instanceof TypeError) {
      return { valid: false, code: 'Invalid', problem: `the signer's keys could not be read: ${(error as Error).message.split('\n')[0]}` };
    }
    return { valid: false, code: 'Invalid', problem: (error as Error).message.split('\n')[0] };
  }
}
