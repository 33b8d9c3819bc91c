/**
 * oidc-provider storage for one sandbox run: a plain Map per model, with expiry. Unlike the
 * provider's quick-start adapter it is not shared across providers in the process and never evicts
 * live entries, and it is what a sandbox needs and no more.
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';

interface Entry {
  payload: AdapterPayload;
  expiresAt: number;
}

/** The models whose ids are secrets handed to a TPP (opaque tokens and codes are their ids). */
const ISSUED = new Set(['AccessToken', 'RefreshToken', 'AuthorizationCode', 'ClientCredentials', 'RegistrationAccessToken']);

/** The maps one provider's models share, with expiry; and what the adapter was told to do beside storing. */
class MemoryStore {
  readonly entries = new Map<string, Entry>();
  readonly byUid = new Map<string, string>();
  readonly byUserCode = new Map<string, string>();
  readonly byGrant = new Map<string, Set<string>>();
  readonly issued?: Set<string>;
  readonly neverConsumed?: ReadonlySet<string>;

  constructor(issued: Set<string> | undefined, neverConsumed: ReadonlySet<string> | undefined) {
    this.issued = issued;
    this.neverConsumed = neverConsumed;
  }

  /** An entry's payload while it has not expired (an expired one is dropped). */
  live(key: string): AdapterPayload | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.payload;
  }
}

/** One model's adapter over the provider's store. */
class SandboxAdapter implements Adapter {
  readonly name: string;
  private readonly store: MemoryStore;
  constructor(name: string, store: MemoryStore) {
    this.name = name;
    this.store = store;
  }
  private key(id: string) {
    return `${this.name}:${id}`;
  }
  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const { issued, entries, byUid, byUserCode, byGrant } = this.store;
    const key = this.key(id);
    if (issued && ISSUED.has(this.name)) issued.add(id);
    // A registered client's secret is as secret as a token (DCR).
    if (issued && this.name === 'Client' && typeof payload.client_secret === 'string') issued.add(payload.client_secret);
    entries.set(key, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
    if (payload.uid) byUid.set(payload.uid, id);
    if (payload.userCode) byUserCode.set(payload.userCode, id);
    if (payload.grantId) {
      const keys = byGrant.get(payload.grantId) ?? new Set<string>();
      keys.add(key);
      byGrant.set(payload.grantId, keys);
    }
  }
  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.store.live(this.key(id));
  }
  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const id = this.store.byUid.get(uid);
    return id ? this.find(id) : undefined;
  }
  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const id = this.store.byUserCode.get(userCode);
    return id ? this.find(id) : undefined;
  }
  async consume(id: string): Promise<void> {
    // A fault's model whose entries are never consumed (authorization-code-reusable, par-request-uri-reusable).
    if (this.store.neverConsumed?.has(this.name)) return;
    const payload = this.store.live(this.key(id));
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id: string): Promise<void> {
    this.store.entries.delete(this.key(id));
  }
  async revokeByGrantId(grantId: string): Promise<void> {
    const { entries, byGrant } = this.store;
    for (const key of byGrant.get(grantId) ?? []) entries.delete(key);
    byGrant.delete(grantId);
  }
}

/**
 * Makes the adapter class for one provider; every model gets its own instance over shared maps.
 * `issued`, when given, collects every token and code handed out (tests scan artefacts for them).
 */
export function memoryAdapter(issued?: Set<string>, o: { neverConsumed?: ReadonlySet<string> } = {}): new (name: string) => Adapter {
  const store = new MemoryStore(issued, o.neverConsumed);
  return class RunAdapter extends SandboxAdapter {
    constructor(name: string) {
      super(name, store);
    }
  };
}
