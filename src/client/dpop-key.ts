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

  constructor(options: { alg?: DpopAlg; keyPair?: CryptoKeyPair; onMade?: (pair: CryptoKeyPair) => Promise<void> | void } = {}) {
    this.alg = options.alg ?? 'ES256';
    if (options.keyPair) this.pair = Promise.resolve(options.keyPair);
    this.onMade = options.onMade;
  }

  /** The key pair, made on first use (extractable, so that a terminal session can keep it). */
  keyPair(): Promise<CryptoKeyPair> {
    this.pair ??= import('openid-client').then((client) => client.randomDPoPKeyPair(this.alg, { extractable: true })).then(async (pair) => {
      await this.onMade?.(pair);
      return pair;
    });
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

