import { importJWK, importPKCS8, type JWK } from 'jose';
import { ProfileError } from '../errors.ts';
import type { ClientAuth } from '../profile/types.ts';

/** A private signing key as openid-client wants it (`{ key, kid }`), plus the JWS alg it signs with. */
export interface SigningKey {
  key: CryptoKey;
  kid?: string;
  alg: string;
}

/**
 * Imports the client's private key from the profile: a PKCS#8 PEM, or a JWK as JSON text.
 * The alg is the profile's (default PS256, or the JWK's own `alg`); the kid is the profile's, or the JWK's.
 * The key material never appears in an error message.
 */
export async function importSigningKey(clientAuth: ClientAuth, field = '$.auth.clientAuth.privateKey'): Promise<SigningKey> {
  const text = clientAuth.privateKey?.trim();
  if (!text) {
    throw new ProfileError(`${field}: a private key is needed (PKCS#8 PEM or a JWK) for ${clientAuth.method === 'private_key_jwt' ? 'private_key_jwt' : 'signing request objects'}`, [field]);
  }
  try {
    if (text.startsWith('{')) {
      const jwk = JSON.parse(text) as JWK;
      const alg = clientAuth.alg ?? jwk.alg ?? 'PS256';
      const key = await importJWK(jwk, alg);
      if (key instanceof Uint8Array) throw new Error('a symmetric JWK cannot sign client assertions');
      return { key, kid: clientAuth.kid ?? jwk.kid, alg };
    }
    const alg = clientAuth.alg ?? 'PS256';
    const key = await importPKCS8(text, alg);
    return { key, kid: clientAuth.kid, alg };
  } catch (error) {
    // jose's messages describe the format, never the key itself; keep only the first line anyway.
    const reason = error instanceof Error ? error.message.split('\n')[0] : 'unreadable';
    throw new ProfileError(`${field}: the private key cannot be imported (${reason})`, [field], {
      hint: 'give a PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----") or a private JWK as JSON, and an alg that fits it (auth.clientAuth.alg, default PS256)',
    });
  }
}
