/**
 * The bank's side of the NextGenPSD2 HTTP signature, when the sandbox runs with `signatures`: it
 * refuses a request without Digest, Signature and TPP-Signature-Certificate (401
 * SIGNATURE_MISSING), with a Digest that is not its body's (401 SIGNATURE_INVALID), a signature
 * that does not verify (401 SIGNATURE_INVALID) or a certificate it does not know (401
 * CERTIFICATE_INVALID); and it signs every answer with its own certificate. The bank's own
 * reading of the guidelines: nothing is shared with the harness's src/client/http-signature.ts.
 */
import { createHash, createSign, createVerify, X509Certificate } from 'node:crypto';
import type { FaultDeclaration, SwitchedFaults } from '../fault-declaration.ts';
import { BgError, format, type BankSignatures } from './plumbing.ts';

/** The keys and certificates of a signing bank. */
export type { BankSignatures } from './plumbing.ts';

export const SIGNATURE_FAULTS = [
  { name: 'bg-unsigned-request-accepted', rule: 'BG-50', description: 'a request without Digest, Signature and TPP-Signature-Certificate is served, though the bank requires signed requests', kind: 'rule', signatures: true },
  { name: 'bg-digest-not-checked', rule: 'BG-50', description: 'the Digest of a signed request is not compared with its body: a body that is not the signed one is served', kind: 'rule', signatures: true },
  { name: 'bg-answer-digest-wrong', rule: 'BG-51', description: 'signed answers carry a Digest that is not the SHA-256 of their body', kind: 'rule', signatures: true },
] as const satisfies readonly (FaultDeclaration & { signatures: true })[];

const sha = (alg: string, text: string) => createHash(alg).update(text, 'utf8').digest('base64');

/** The keyId of a certificate: its serial number (hex) and the issuer's DN. */
function keyIdOf(cert: X509Certificate): string {
  return `SN=${cert.serialNumber.replace(/^0+/, '').toUpperCase()},CA=${cert.issuer.split('\n').reverse().join(',')}`;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Checks a request's signature (throws the refusal), given its headers and its body as received. */
export function checkRequestSignature(s: BankSignatures, faults: SwitchedFaults, headers: Record<string, string | string[] | undefined>, body: string): void {
  const signature = header(headers, 'signature');
  const digest = header(headers, 'digest');
  const certB64 = header(headers, 'tpp-signature-certificate');
  if (!signature) {
    if (faults.has('bg-unsigned-request-accepted')) return;
    throw new BgError(401, 'SIGNATURE_MISSING', 'this bank requires the request to be signed (Digest, Signature, TPP-Signature-Certificate)', 'Signature');
  }
  if (!digest) throw format('Digest is required with Signature', 'Digest');
  if (!certB64) throw new BgError(401, 'CERTIFICATE_MISSING', 'TPP-Signature-Certificate is required with Signature', 'TPP-Signature-Certificate');
  const d = /^SHA-(256|512)=(.+)$/i.exec(digest);
  if (!d) throw format('Digest must be SHA-256=<base64> or SHA-512=<base64>', 'Digest');
  if (!faults.has('bg-digest-not-checked') && d[2] !== sha(`sha${d[1]}`, body)) throw new BgError(401, 'SIGNATURE_INVALID', 'the Digest is not the digest of the body', 'Digest');
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(Buffer.from(certB64, 'base64'));
  } catch {
    throw new BgError(401, 'CERTIFICATE_INVALID', 'TPP-Signature-Certificate is not a base64 DER certificate', 'TPP-Signature-Certificate');
  }
  if (cert.fingerprint256 !== new X509Certificate(s.tppCertPem).fingerprint256) throw new BgError(401, 'CERTIFICATE_INVALID', 'the signature certificate is not one this bank knows for a TPP', 'TPP-Signature-Certificate');
  const parts: Record<string, string> = {};
  for (const m of signature.matchAll(/(\w+)="([^"]*)"/g)) parts[m[1]!] = m[2]!;
  if (!parts.keyId || !parts.headers || !parts.signature) throw format('Signature must carry keyId, headers and signature', 'Signature');
  if (parts.algorithm && !/^(rsa-sha256|SHA256withRSA)$/i.test(parts.algorithm)) throw new BgError(401, 'SIGNATURE_INVALID', `algorithm ${parts.algorithm} is not supported (rsa-sha256)`, 'Signature');
  const sn = /SN=([0-9A-Fa-f]+)/.exec(parts.keyId)?.[1]?.replace(/^0+/, '').toUpperCase();
  if (sn !== cert.serialNumber.replace(/^0+/, '').toUpperCase()) throw new BgError(401, 'CERTIFICATE_INVALID', 'the keyId does not name the serial number of TPP-Signature-Certificate', 'Signature');
  const names = parts.headers.toLowerCase().split(/\s+/).filter(Boolean);
  for (const required of ['digest', 'x-request-id']) if (!names.includes(required)) throw new BgError(401, 'SIGNATURE_INVALID', `the signature must cover ${required}`, 'Signature');
  for (const conditional of ['psu-id', 'psu-corporate-id', 'tpp-redirect-uri']) {
    if (header(headers, conditional) && !names.includes(conditional)) throw new BgError(401, 'SIGNATURE_INVALID', `the signature must cover ${conditional}, which the request carries`, 'Signature');
  }
  const text = names.map((n) => `${n}: ${header(headers, n) ?? ''}`).join('\n');
  let ok = false;
  try {
    ok = createVerify('sha256').update(text, 'utf8').verify(cert.publicKey, parts.signature, 'base64');
  } catch {
    ok = false;
  }
  if (!ok) throw new BgError(401, 'SIGNATURE_INVALID', 'the signature does not verify', 'Signature');
}

/** The Digest, Date and Signature of an answer (its X-Request-ID given). */
export function signAnswer(s: BankSignatures, faults: SwitchedFaults, requestId: string, payload: string | undefined): Record<string, string> {
  const body = payload ?? '';
  // The fault: the digest of another body than the one sent.
  const digest = `SHA-256=${sha('sha256', faults.has('bg-answer-digest-wrong') ? `${body} ` : body)}`;
  const date = new Date().toUTCString();
  const text = `digest: ${digest}\nx-request-id: ${requestId}\ndate: ${date}`;
  const signature = createSign('sha256').update(text, 'utf8').sign(s.bankKey, 'base64');
  return { Digest: digest, Date: date, Signature: `keyId="${keyIdOf(new X509Certificate(s.bankCertPem))}",algorithm="rsa-sha256",headers="digest x-request-id date",signature="${signature}"` };
}
