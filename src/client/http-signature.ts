/**
 * NextGenPSD2 message signing (the implementation guidelines' HTTP signature, after
 * draft-cavage-http-signatures): `Digest` (SHA-256 of the body, base64), `Signature` (keyId with
 * the signing certificate's serial number and issuing CA, algorithm rsa-sha256, the signed header
 * names, and the RSA-SHA256 signature of the signing string) and `TPP-Signature-Certificate` (the
 * certificate, base64 DER). The same form verifies a bank's signed answers against the
 * certificate its profile names. node:crypto only; the key never reaches a message or an error.
 */
import { createHash, createPrivateKey, createSign, createVerify, X509Certificate, type KeyObject } from 'node:crypto';

/** The headers signed when present, in this order: Digest and X-Request-ID always (the guidelines' mandatory pair), the others where sent. */
export const SIGNED_HEADERS = ['digest', 'x-request-id', 'psu-id', 'psu-corporate-id', 'tpp-redirect-uri', 'date'] as const;

/** `SHA-256=<base64>` of a body (the empty string for a request without one). */
export function digestOf(body: string): string {
  return `SHA-256=${createHash('sha256').update(body, 'utf8').digest('base64')}`;
}

/** `SN=<serial, hex>,CA=<issuer DN, RFC 4514 order>` of a certificate, as the Signature's keyId names it. */
export function keyIdOf(cert: X509Certificate): string {
  const ca = cert.issuer.split('\n').reverse().join(',');
  return `SN=${cert.serialNumber.replace(/^0+(?=.)/, '').toUpperCase()},CA=${ca}`;
}

/** A signer of requests: the profile's signing key and the certificate of that key. */
export interface RequestSigner {
  key: KeyObject;
  cert: X509Certificate;
}

/** Reads a PEM (or private JWK JSON) key and a PEM certificate; the key's text never appears in an error. */
export function requestSigner(keyText: string, certPem: string): RequestSigner {
  const t = keyText.trim();
  let key: KeyObject;
  try {
    key = t.startsWith('{') ? createPrivateKey({ key: JSON.parse(t), format: 'jwk' }) : createPrivateKey(t);
  } catch {
    throw new Error('the signing key is not a PKCS#8 PEM or a private JWK');
  }
  if (key.asymmetricKeyType !== 'rsa') throw new Error(`the signing key is ${key.asymmetricKeyType}, not RSA (rsa-sha256)`);
  const cert = new X509Certificate(certPem);
  if (!cert.checkPrivateKey(key)) throw new Error('the signing certificate is not the certificate of the signing key');
  return { key, cert };
}

/**
 * The signature headers of one request, given its final headers (lower-case names) and body
 * text: `digest`, `signature` and `tpp-signature-certificate` to add. `digestBody` is the text the
 * Digest is computed over (default the body): a test of the bank gives another one.
 */
export function signRequest(signer: RequestSigner, headers: Record<string, string>, body: string, digestBody = body): Record<string, string> {
  const all: Record<string, string> = { ...headers, digest: digestOf(digestBody) };
  const names = SIGNED_HEADERS.filter((n) => all[n] !== undefined);
  const signingString = names.map((n) => `${n}: ${all[n]}`).join('\n');
  const signature = createSign('sha256').update(signingString, 'utf8').sign(signer.key, 'base64');
  return {
    digest: all.digest!,
    signature: `keyId="${keyIdOf(signer.cert)}",algorithm="rsa-sha256",headers="${names.join(' ')}",signature="${signature}"`,
    'tpp-signature-certificate': signer.cert.raw.toString('base64'),
  };
}

/** The parts of a `Signature` header (`name="value"` pairs; values may hold commas). */
export function parseSignature(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of header.matchAll(/([A-Za-z]+)="([^"]*)"/g)) out[m[1]!] = m[2]!;
  return out;
}

/** The outcome of checking a signed answer. */
export type HttpSignatureCheck = { valid: true; keyId: string } | { valid: false; problem: string };

/**
 * Checks a bank's signed answer: a Digest that is the SHA-256 (or SHA-512) of the body as
 * received, a Signature whose keyId names the bank's certificate, whose headers list digest and
 * x-request-id, and that verifies with that certificate's key over the answer's headers.
 */
export function verifyAnswer(headers: Record<string, string | undefined>, body: string, cert: X509Certificate): HttpSignatureCheck {
  const digest = headers.digest;
  const signature = headers.signature;
  if (!digest) return { valid: false, problem: 'the answer has no Digest header' };
  if (!signature) return { valid: false, problem: 'the answer has no Signature header' };
  const m = /^SHA-(256|512)=(.+)$/i.exec(digest.trim());
  if (!m) return { valid: false, problem: `the Digest ${JSON.stringify(digest.slice(0, 80))} is not SHA-256=… or SHA-512=…` };
  const expected = createHash(`sha${m[1]}`).update(body, 'utf8').digest('base64');
  if (m[2] !== expected) return { valid: false, problem: `the Digest is not the SHA-${m[1]} of the answer's body (${expected} expected, ${m[2]!.slice(0, 60)} given)` };
  const parts = parseSignature(signature);
  for (const field of ['keyId', 'algorithm', 'headers', 'signature'] as const) {
    if (!parts[field]) return { valid: false, problem: `the Signature has no ${field}` };
  }
  if (!/^(rsa-sha256|SHA256withRSA)$/i.test(parts.algorithm!)) return { valid: false, problem: `the Signature's algorithm is ${JSON.stringify(parts.algorithm)}, not rsa-sha256` };
  const names = parts.headers!.toLowerCase().split(/\s+/).filter(Boolean);
  for (const required of ['digest', 'x-request-id']) {
    if (!names.includes(required)) return { valid: false, problem: `the Signature does not sign ${required} (headers="${parts.headers}")` };
  }
  const keyId = parts.keyId!;
  if (!sameKeyId(keyId, keyIdOf(cert))) return { valid: false, problem: `the Signature's keyId ${JSON.stringify(keyId)} does not name the bank's signing certificate (${keyIdOf(cert)})` };
  const missing = names.filter((n) => headers[n] === undefined);
  if (missing.length) return { valid: false, problem: `the Signature signs ${missing.join(', ')}, which the answer does not carry` };
  const signingString = names.map((n) => `${n}: ${headers[n]}`).join('\n');
  let ok = false;
  try {
    ok = createVerify('sha256').update(signingString, 'utf8').verify(cert.publicKey, parts.signature!, 'base64');
  } catch {
    ok = false;
  }
  return ok ? { valid: true, keyId } : { valid: false, problem: 'the Signature does not verify with the key of the bank\'s signing certificate' };
}

/** Two keyIds alike: the serial number without leading zeros and case, the CA without regard to the order of its parts. */
function sameKeyId(a: string, b: string): boolean {
  const norm = (k: string) => {
    const sn = /SN=([0-9A-Fa-f]+)/.exec(k)?.[1]?.replace(/^0+(?=.)/, '').toUpperCase();
    const ca = /CA=(.*)$/.exec(k)?.[1]?.split(',').map((p) => decodeURIComponent(p.trim())).sort().join(',');
    return `${sn}|${ca}`;
  };
  return norm(a) === norm(b);
}
