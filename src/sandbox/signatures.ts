/**
 * The sandbox bank's side of x-jws-signature (UK v3.1 message signing): it signs its payment
 * answers with its own key (published in the authorisation server's JWKS) and checks the TPP's
 * payment requests against the keys the TPP registered. Written apart from the harness's own
 * signing code (src/client/jws.ts): a bank and its examiner must not share their mistakes.
 */
import { FlattenedSign, flattenedVerify, createLocalJWKSet, importJWK, errors } from 'jose';
import type { JSONWebKeySet, JWK } from 'jose';

const IAT = 'http://openbanking.org.uk/iat';
const ISS = 'http://openbanking.org.uk/iss';
const TAN = 'http://openbanking.org.uk/tan';

/** Why a request's signature is refused: the `UK.OBIE.Signature.*` code and a sentence. */
export interface SignatureRefusal {
  code: 'Missing' | 'Malformed' | 'MissingClaim' | 'InvalidClaim' | 'Invalid';
  message: string;
}

/** Signs an answer body as the bank (`protected..signature`). */
export async function signAsBank(body: string, key: { privateJwk: JWK; kid: string }, issuer: string): Promise<string> {
  const k = await importJWK(key.privateJwk, 'PS256');
  const jws = await new FlattenedSign(Buffer.from(body, 'utf8'))
    .setProtectedHeader({ alg: 'PS256', kid: key.kid, typ: 'JOSE', cty: 'application/json', [IAT]: Math.floor(Date.now() / 1000), [ISS]: issuer, [TAN]: 'openbanking.org.uk', crit: [IAT, ISS, TAN] })
    .sign(k, { crit: { [IAT]: true, [ISS]: true, [TAN]: true } });
  return `${jws.protected}..${jws.signature}`;
}

/** Checks a TPP's detached signature over the raw body with the TPP's registered keys; undefined when it holds. */
export async function checkTppSignature(header: string | string[] | undefined, body: string, keys: JSONWebKeySet): Promise<SignatureRefusal | undefined> {
  if (typeof header !== 'string' || header === '') return { code: 'Missing', message: 'x-jws-signature is required on this request' };
  const [head, middle, signature, ...rest] = header.split('.');
  if (rest.length || middle !== '' || !head || !signature) return { code: 'Malformed', message: 'x-jws-signature must be a detached JWS (header..signature)' };
  let h: Record<string, unknown>;
  try {
    h = JSON.parse(Buffer.from(head, 'base64url').toString('utf8'));
  } catch {
    return { code: 'Malformed', message: 'the JWS header is not base64url-encoded JSON' };
  }
  if (h.alg !== 'PS256') return { code: 'InvalidClaim', message: 'alg must be PS256' };
  for (const claim of ['kid', IAT, ISS, TAN, 'crit']) if (h[claim] === undefined) return { code: 'MissingClaim', message: `the JWS header lacks ${claim}` };
  const crit = h.crit as unknown;
  if (!Array.isArray(crit) || crit.length !== 3 || ![IAT, ISS, TAN].every((c) => crit.includes(c))) return { code: 'InvalidClaim', message: `crit must list ${IAT}, ${ISS} and ${TAN}` };
  try {
    await flattenedVerify({ protected: head, payload: Buffer.from(body, 'utf8').toString('base64url'), signature }, createLocalJWKSet(keys), {
      algorithms: ['PS256'], crit: { [IAT]: true, [ISS]: true, [TAN]: true },
    });
    return undefined;
  } catch (error) {
    if (error instanceof errors.JWKSNoMatchingKey) return { code: 'Invalid', message: 'the kid of x-jws-signature is not a key this TPP registered' };
    return { code: 'Invalid', message: 'x-jws-signature does not verify over the request body' };
  }
}
