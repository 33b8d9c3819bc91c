/**
 * Larchmont's message signing (UK Read/Write v3.1.11, from v3.1.4 on): every payment request is a
 * detached JWS (RFC 7515 App. F) over its raw body, PS256, whose protected header names its kid and
 * the critical claims http://openbanking.org.uk/iat, /iss and /tan; every payment answer is signed
 * the same way with the bank's key (published in its authorisation server's JWKS). The TPP's key
 * is the one the directory holds for it: here the bank makes the key pair and hands the private
 * half to the test, as a directory enrolment would.
 */
import { randomBytes } from 'node:crypto';
import { exportPKCS8, FlattenedSign, flattenedVerify, generateKeyPair, importJWK } from 'jose';
import type { JWK } from 'jose';

const OB = 'http://openbanking.org.uk/';
const CLAIMS = [`${OB}iat`, `${OB}iss`, `${OB}tan`];
const TRUST_ANCHOR = 'openbanking.org.uk';

export interface SignatureProblem { code: 'Missing' | 'Malformed' | 'MissingClaim' | 'InvalidClaim' | 'Invalid'; message: string }

export interface MessageSigning {
  /** The bank's x-jws-signature over an answer's bytes. */
  sign(body: string): Promise<string>;
  /** What is wrong with a TPP's x-jws-signature over a request's bytes, if anything. */
  check(header: string | undefined, body: string, clientId: string): Promise<SignatureProblem | undefined>;
}

export interface TppSigningKey { kid: string; pem: string }

export async function makeSigning(bankJwk: JWK & { kid: string }, issuer: string): Promise<{ signing: MessageSigning; tpp: TppSigningKey }> {
  const bankKey = await importJWK(bankJwk, 'PS256');
  const pair = await generateKeyPair('PS256', { modulusLength: 2048, extractable: true });
  const tpp: TppSigningKey = { kid: `dir-${randomBytes(6).toString('hex')}`, pem: await exportPKCS8(pair.privateKey) };
  const crit = Object.fromEntries(CLAIMS.map((c) => [c, true]));
  return {
    tpp,
    signing: {
      async sign(body) {
        const jws = await new FlattenedSign(new TextEncoder().encode(body))
          .setProtectedHeader({ alg: 'PS256', kid: bankJwk.kid, typ: 'JOSE', cty: 'application/json', [`${OB}iat`]: Math.floor(Date.now() / 1000), [`${OB}iss`]: issuer, [`${OB}tan`]: TRUST_ANCHOR, crit: CLAIMS })
          .sign(bankKey, { crit });
        return `${jws.protected}..${jws.signature}`;
      },
      async check(header, body) {
        if (!header) return { code: 'Missing', message: 'x-jws-signature is required on a payment request' };
        const m = /^([\w-]+)\.\.([\w-]+)$/.exec(header.trim());
        if (!m) return { code: 'Malformed', message: 'x-jws-signature is not a detached JWS' };
        let head: Record<string, unknown>;
        try {
          head = JSON.parse(Buffer.from(m[1]!, 'base64url').toString('utf8'));
        } catch {
          return { code: 'Malformed', message: 'the JWS header is not JSON' };
        }
        if (head.alg !== 'PS256') return { code: 'InvalidClaim', message: 'the JWS must be PS256' };
        if (typeof head.kid !== 'string') return { code: 'MissingClaim', message: 'the JWS header has no kid' };
        for (const c of CLAIMS) if (head[c] === undefined) return { code: 'MissingClaim', message: `the JWS header lacks ${c}` };
        if (!Array.isArray(head.crit) || head.crit.length !== CLAIMS.length || !CLAIMS.every((c) => (head.crit as unknown[]).includes(c))) return { code: 'InvalidClaim', message: `crit must list ${CLAIMS.join(', ')}` };
        if (head[`${OB}tan`] !== TRUST_ANCHOR) return { code: 'InvalidClaim', message: `${OB}tan must be ${TRUST_ANCHOR}` };
        if (typeof head[`${OB}iat`] !== 'number' || typeof head[`${OB}iss`] !== 'string') return { code: 'InvalidClaim', message: 'iat must be a number and iss a string' };
        if (head.kid !== tpp.kid) return { code: 'Invalid', message: 'the kid is not a key the directory holds for this TPP' };
        try {
          await flattenedVerify({ protected: m[1]!, payload: Buffer.from(body, 'utf8').toString('base64url'), signature: m[2]! }, pair.publicKey, { crit });
        } catch {
          return { code: 'Invalid', message: 'the signature does not verify over the body' };
        }
        return undefined;
      },
    },
  };
}
