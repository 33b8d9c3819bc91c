/**
 * Session state of the terminal client: per profile identity and variant, the consents created,
 * the current consent of each function, and the tokens. Tokens are secrets: this file (mode 0600,
 * in a 0700 directory, outside the project) is the only place they are ever written.
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { StateError } from '../errors.ts';
import { acquireLock } from '../lock.ts';
import type { Fn, Variant } from '../profile/types.ts';

export interface AccountSummary {
  AccountId: string;
  Currency?: string;
  Nickname?: string;
  SchemeName?: string;
  Identification?: string;
  Name?: string;
}

export interface ConsentRecord {
  id: string;
  fn: Fn;
  /** As the bank last said (or as the authorisation left it). */
  status: string;
  createdAt: string;
  expiration?: string;
  permissions?: string[];
  transactionFrom?: string;
  transactionTo?: string;
  debtor?: { SchemeName: string; Identification: string; Name?: string };
  amount?: { Amount: string; Currency: string };
  creditor?: { SchemeName: string; Identification: string; Name?: string };
  /** The payment order submitted on this payment-order consent (its DomesticPaymentId). */
  paymentOrderId?: string;
  /** Accounts the PSU selected (authorisation) and those seen by listing. */
  accountIds?: string[];
  accounts?: AccountSummary[];
  /**
   * berlin-group: the SCA approach the bank gave the consent and its link (scaRedirect, scaOAuth;
   * decoupled and embedded: the link to the authorisation the bank started, or with `start` the
   * link to start one, `withPassword` when it asks for the PSU's password with the start).
   */
  sca?: { approach: 'redirect' | 'oauth' | 'decoupled' | 'embedded'; href: string; start?: true; withPassword?: true };
  /** berlin-group: the payment product a payment was created under (its path: /v1/payments/{payment-product}). */
  product?: string;
  /** berlin-group: the payment service a payment was created under, where not `payments` (its path: /v1/{payment-service}/…). */
  service?: 'periodic-payments' | 'bulk-payments';
  /** berlin-group: how many payments a bulk holds (its amount is their sum). */
  count?: number;
  /** A domestic VRP consent (fn pis): what bounds its payments, and the payments made under it (DomesticVRPIds). */
  vrp?: {
    maximum: { Amount: string; Currency: string };
    limits: Array<{ PeriodType: string; PeriodAlignment: string; Amount: string; Currency: string }>;
    type: string;
    payments?: string[];
  };
  /** A consent of a UK payment family made by obtpp pay (fn pis): its family and, once submitted, its order's id. */
  family?: { type: string; orderId?: string };
  /** berlin-group: the consent's `access` as asked (what it grants: accounts, balances, transactions, or a global form). */
  access?: Record<string, unknown>;
}

/** berlin-group: a signing basket, whose one SCA authorises the consents and payments it names. */
export interface BasketRecord {
  id: string;
  /** Its transactionStatus, as the bank last said. */
  status: string;
  createdAt: string;
  consentIds: string[];
  paymentIds: string[];
  sca?: ConsentRecord['sca'];
}

export interface StoredToken {
  accessToken: string;
  refreshToken?: string;
  /** Epoch ms. */
  expiresAt?: number;
  scope?: string;
  tokenType?: string;
  /** How the token is bound to the TPP: its client certificate (mtls), the session's DPoP key (dpop), or not (none). */
  senderConstraint?: 'mtls' | 'dpop' | 'none';
  /** The id_token's openbanking_intent_id claim, when the bank echoed it. */
  intentId?: string;
  /** The authorisation server that issued it (issuer, or discovery URL): a cached client-credentials token is reused only at the same one. */
  issuer?: string;
  obtainedAt: number;
}

/**
 * A client obtpp registered at the bank (DCR): its id, and the secrets that go with it — the client
 * secret and the registration access token (RFC 7592) — which only `obtpp register show --reveal` prints.
 */
export interface StoredRegistration {
  clientId: string;
  clientSecret?: string;
  registrationAccessToken?: string;
  registrationClientUri?: string;
  tokenEndpointAuthMethod?: string;
  endpoint: string;
  /** Epoch ms. */
  registeredAt: number;
}

export interface ProfileState {
  profile: string;
  baseUrl: string;
  clientId: string;
  variant: Variant;
  /**
   * The current consent of each function; `vrp`: the current VRP consent, `pay`: the current
   * payment-family consent of obtpp pay (both kept apart from the domestic payment-order consent).
   */
  current: Partial<Record<Fn | 'vrp' | 'pay' | 'basket', string>>;
  /** The consent created or authorised most recently (default of `consent authorise` and `token show`). */
  last?: string;
  consents: Record<string, ConsentRecord>;
  /** berlin-group: the signing baskets obtpp created (obtpp basket). */
  baskets?: Record<string, BasketRecord>;
  tokens: Record<string, StoredToken>;
  registration?: StoredRegistration;
  clientCredentials: Partial<Record<Fn, StoredToken>>;
  /** The DPoP key (a private JWK) the session's DPoP-bound tokens are bound to, made on the first DPoP request. */
  dpopKey?: JsonWebKey & { alg?: string };
}

export interface StateDocument {
  version: 1;
  profiles: Record<string, ProfileState>;
}

/** `--state FILE` > OBTPP_STATE > $XDG_CONFIG_HOME/obtpp/state.json > ~/.config/obtpp/state.json. */
export function statePath(flag: string | undefined, env: Record<string, string | undefined>, cwd: string): string {
  const chosen = flag ?? (env.OBTPP_STATE || undefined);
  if (chosen) return isAbsolute(chosen) ? chosen : resolve(cwd, chosen);
  const base = env.XDG_CONFIG_HOME || (env.HOME ? join(env.HOME, '.config') : undefined);
  if (!base) throw new StateError('state_path', 'cannot tell where the session state file goes: set HOME, XDG_CONFIG_HOME or OBTPP_STATE, or pass --state FILE');
  return join(base, 'obtpp', 'state.json');
}

/** The key two profiles never share: profile name, resource base URL, client id, variant. */
export function profileKey(p: { profile: string; baseUrl: string; clientId: string; variant: Variant }): string {
  return `${p.profile} | ${p.baseUrl} | ${p.clientId} | ${p.variant}`;
}

/** A lock older than this (not refreshed by its holder: it crashed) is taken over. */
const STALE_MS = 10_000;
/** How long a command waits for the lock (many commands at once) before it gives up in one line. */
const LOCK_WAIT_MS = 20_000;

export class StateFile {
  readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  async read(): Promise<StateDocument> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, profiles: idMap() };
      throw new StateError('state_unreadable', `session state ${this.path} cannot be read (${(error as Error).message})`, { cause: error });
    }
    try {
      const doc = JSON.parse(text) as StateDocument;
      if (!doc || typeof doc !== 'object' || typeof doc.profiles !== 'object') throw new Error('not a state document');
      return withIdMaps(doc);
    } catch (error) {
      throw new StateError('state_corrupt', `session state ${this.path} is not valid JSON (${(error as Error).message}); delete it to start afresh`, { cause: error });
    }
  }

  /**
   * Applies a change to the freshest copy on disk and writes it atomically (temp file + rename),
   * holding the state's lock from the read to the rename, so that commands run at once (forty
   * `obtpp consent create` in parallel) never lose each other's changes. The lock is the
   * `<state>.lock` directory (src/lock.ts), refreshed while held: one left by a crashed command
   * is taken over once it is STALE_MS old.
   */
  async update<T>(change: (doc: StateDocument) => T): Promise<T> {
    const dir = dirname(this.path);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    let release: () => Promise<void>;
    try {
      release = await acquireLock(`${this.path}.lock`, { staleMs: STALE_MS, waitMs: LOCK_WAIT_MS });
    } catch (error) {
      throw new StateError('state_locked', `session state ${this.path} is locked by another obtpp command (${(error as Error).message}); try again, or remove ${this.path}.lock if no obtpp runs`, { cause: error });
    }
    try {
      const doc = await this.read();
      const result = change(doc);
      await this.write(doc);
      return result;
    } finally {
      await release().catch(() => undefined);
    }
  }

  private async write(doc: StateDocument): Promise<void> {
    const dir = dirname(this.path);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = `${this.path}.${randomBytes(6).toString("hex")}.tmp`;
    await writeFile(tmp, JSON.stringify(doc, null, 2) + '\n', { mode: 0o600 });
    await chmod(tmp, 0o600);
    await rename(tmp, this.path);
  }
}

export function emptyProfileState(id: { profile: string; baseUrl: string; clientId: string; variant: Variant }): ProfileState {
  return { ...id, current: idMap(), consents: idMap(), tokens: idMap(), clientCredentials: idMap() };
}

/**
 * An object keyed by ids the bank chose, without a prototype: a consent id `__proto__` is then an
 * entry like any other (on a plain object it would replace the prototype and vanish from the
 * file), and `constructor` or `toString` finds no inherited function.
 */
export function idMap<T>(entries?: Record<string, T>): Record<string, T> {
  const map = Object.create(null) as Record<string, T>;
  if (entries && typeof entries === 'object') for (const [k, v] of Object.entries(entries)) map[k] = v;
  return map;
}

/** The state as read, with every id-keyed object an idMap. */
function withIdMaps(doc: StateDocument): StateDocument {
  const profiles = idMap<ProfileState>();
  for (const [key, ps] of Object.entries(doc.profiles)) {
    profiles[key] = ps && typeof ps === 'object'
      ? { ...ps, current: idMap(ps.current), consents: idMap(ps.consents), ...(ps.baskets ? { baskets: idMap(ps.baskets) } : {}), tokens: idMap(ps.tokens), clientCredentials: idMap(ps.clientCredentials) }
      : ps;
  }
  return { ...doc, profiles };
}
