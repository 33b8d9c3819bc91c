/**
 * The DPoP key (RFC 9449) of a run or a terminal session: one key pair, made on first use with
 * openid-client (or the session's saved one), shared by every HTTP client that sends its tokens,
 * and the access tokens the bank issued as DPoP-bound. openid-client is imported only when a key
 * is needed.
 */
export type DpopAlg = 'ES256' | 'PS256' | 'EdDSA';

/** The DPoP key of a run or a terminal session, shared by every HTTP client that sends its tokens. */
export class DpopKey {
  /** The alg the key is made for; settable until the key is made. */
  alg: DpopAlg;
  private pair?: Promise<CryptoKeyPair>;
  private readonly onMade?: (pair: CryptoKeyPair) => Promise<void> | void;
  /** Access tokens the bank issued as DPoP-bound (token_type DPoP): only these are sent with a proof. */
  readonly bound = new Set<string>();

  private readonly saved?: () => Promise<CryptoKeyPair | undefined>;

  /**
   * `saved`: where a key kept from an earlier process is found (a terminal session's state), asked
   * on first use; `onMade`: told of a key made here, to keep it.
   */
  constructor(options: { alg?: DpopAlg; keyPair?: CryptoKeyPair; saved?: () => Promise<CryptoKeyPair | undefined>; onMade?: (pair: CryptoKeyPair) => Promise<void> | void } = {}) {
    this.alg = options.alg ?? 'ES256';
    if (options.keyPair) this.pair = Promise.resolve(options.keyPair);
    this.saved = options.saved;
    this.onMade = options.onMade;
  }

  /** The key pair: the saved one, else made on first use (extractable, so that a terminal session can keep it). */
  keyPair(): Promise<CryptoKeyPair> {
    this.pair ??= (async () => {
      const kept = await this.saved?.();
      if (kept) return kept;
      const client = await import('openid-client');
      const pair = await client.randomDPoPKeyPair(this.alg, { extractable: true });
      await this.onMade?.(pair);
      return pair;
    })();
    this.pair.catch(() => (this.pair = undefined));
    return this.pair;
  }

  /** Whether a key exists already (a session's saved one, or one made in this process). */
  get made(): boolean {
    return this.pair !== undefined;
  }

  /** The key's JWK thumbprint (RFC 7638), as `dpop_jkt` and the tokens' `cnf.jkt` name it. */
  async thumbprint(): Promise<string> {
    const client = await import('openid-client');
    const handle = client.getDPoPHandle(new client.Configuration({ issuer: 'urn:obtpp:dpop' }, 'obtpp'), await this.keyPair());
    return handle.calculateThumbprint();
  }
}

/** The algorithm of an imported key pair (for a session's saved key). */
export function algOf(pair: CryptoKeyPair): DpopAlg {
  const a = pair.privateKey.algorithm as { name: string };
  return a.name === 'ECDSA' ? 'ES256' : a.name === 'Ed25519' ? 'EdDSA' : 'PS256';
}


const WEBCRYPTO: Record<DpopAlg, RsaHashedImportParams | EcKeyImportParams | Algorithm> = {
  ES256: { name: 'ECDSA', namedCurve: 'P-256' } as EcKeyImportParams,
  PS256: { name: 'RSA-PSS', hash: 'SHA-256' } as RsaHashedImportParams,
  EdDSA: { name: 'Ed25519' },
};

/** A key pair as a terminal session keeps it: the private JWK (in its state file, mode 0600), with its alg. */
export async function exportDpopKey(pair: CryptoKeyPair): Promise<JsonWebKey & { alg: DpopAlg }> {
  return { ...(await crypto.subtle.exportKey('jwk', pair.privateKey)), alg: algOf(pair) };
}

/** The key pair of a kept private JWK. */
export async function importDpopKey(jwk: JsonWebKey & { alg?: string }): Promise<CryptoKeyPair> {
  const alg = (jwk.alg === 'PS256' || jwk.alg === 'EdDSA' ? jwk.alg : 'ES256') as DpopAlg;
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, key_ops: _o, ...pub } = jwk;
  return {
    privateKey: await crypto.subtle.importKey('jwk', jwk, WEBCRYPTO[alg], true, ['sign']),
    publicKey: await crypto.subtle.importKey('jwk', { ...pub, key_ops: ['verify'] }, WEBCRYPTO[alg], true, ['verify']),
  };
}
