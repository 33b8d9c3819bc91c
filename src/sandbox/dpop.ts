/**
 * The sandbox resource server's side of DPoP (RFC 9449 §7): a DPoP-bound access token is honoured
 * only with `Authorization: DPoP` and a fresh proof of the key it is bound to (typ dpop+jwt, htm,
 * htu, iat, a jti not seen before, ath over the token, the server's nonce). The bank's own check,
 * on jose, sharing nothing with the harness (which makes its proofs with openid-client).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify } from 'jose';

/** Why a DPoP request is refused: the status, the WWW-Authenticate challenge and, for a nonce, the nonce to use. */
export class DpopRefusal extends Error {
  readonly headers: Record<string, string>;
  constructor(error: 'invalid_token' | 'invalid_dpop_proof' | 'use_dpop_nonce', description: string, nonce?: string) {
    super(description);
    this.headers = {
      'www-authenticate': `DPoP error="${error}", error_description="${description.replace(/"/g, "'")}", algs="ES256 PS256 EdDSA"`,
      ...(nonce ? { 'dpop-nonce': nonce } : {}),
    };
  }
}

/** How far a proof's iat may be from now, in seconds. */
const IAT_WINDOW = 300;

export interface DpopVerifier {
  /**
   * Checks the request's DPoP proof for a token bound to `jkt`; `url` is the request's full URL as
   * the TPP addressed it. Throws DpopRefusal. `claims: false` (the dpop-proof-claims-not-checked
   * fault, obie/plumbing.ts) checks only the proof's signature, its key and the nonce.
   */
  check(req: IncomingMessage, url: string, accessToken: string, jkt: string, o?: { claims?: boolean }): Promise<void>;
}

/** A resource server's DPoP checks; with `requireNonce`, its nonce too (one nonce per sandbox, as a bank rotates them). */
export function dpopVerifier(options: { requireNonce: boolean }): DpopVerifier {
  const nonce = randomBytes(16).toString('base64url');
  const seen = new Map<string, number>();
  return {
    async check(req, url, accessToken, jkt, o = {}) {
      const proof = req.headers.dpop;
      if (typeof proof !== 'string' || !proof) throw new DpopRefusal('invalid_token', 'the access token is DPoP-bound: a DPoP proof is required');
      let payload: Record<string, unknown>;
      let jwk: Record<string, unknown>;
      try {
        const verified = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: ['ES256', 'PS256', 'EdDSA'] });
        payload = verified.payload as Record<string, unknown>;
        jwk = verified.protectedHeader.jwk as Record<string, unknown>;
      } catch (error) {
        throw new DpopRefusal('invalid_dpop_proof', `the DPoP proof does not verify (${(error as Error).message})`);
      }
      const target = new URL(url);
      if (o.claims === false) {
        if ((await calculateJwkThumbprint(jwk as never)) !== jkt) throw new DpopRefusal('invalid_token', 'the access token is bound to another DPoP key');
        if (options.requireNonce && payload.nonce !== nonce) throw new DpopRefusal('use_dpop_nonce', 'the resource server requires its DPoP nonce', nonce);
        return;
      }
      if (payload.htm !== req.method) throw new DpopRefusal('invalid_dpop_proof', 'the DPoP proof is for another method (htm)');
      // RFC 9449 §4.3 (9): htu is compared without its query and fragment.
      const htu = typeof payload.htu === 'string' ? URL.parse(payload.htu) : null;
      if (!htu || `${htu.origin}${htu.pathname}` !== `${target.origin}${target.pathname}`) throw new DpopRefusal('invalid_dpop_proof', 'the DPoP proof is for another URL (htu)');
      if (typeof payload.iat !== 'number' || Math.abs(Date.now() / 1000 - payload.iat) > IAT_WINDOW) throw new DpopRefusal('invalid_dpop_proof', 'the DPoP proof\'s iat is not recent');
      if (payload.ath !== createHash('sha256').update(accessToken).digest('base64url')) throw new DpopRefusal('invalid_dpop_proof', 'the DPoP proof is not for this access token (ath)');
      if ((await calculateJwkThumbprint(jwk as never)) !== jkt) throw new DpopRefusal('invalid_token', 'the access token is bound to another DPoP key');
      if (options.requireNonce && payload.nonce !== nonce) throw new DpopRefusal('use_dpop_nonce', 'the resource server requires its DPoP nonce', nonce);
      const jti = typeof payload.jti === 'string' ? payload.jti : '';
      const now = Date.now();
      for (const [k, until] of seen) if (until < now) seen.delete(k);
      if (!jti || seen.has(jti)) throw new DpopRefusal('invalid_dpop_proof', 'the DPoP proof\'s jti was used before (a replay)');
      seen.set(jti, now + 2 * IAT_WINDOW * 1000);
    },
  };
}
