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

/**
 * Makes the adapter class for one provider; every model gets its own instance over shared maps.
 * `issued`, when given, collects every token and code handed out (tests scan artefacts for them).
 */
export function memoryAdapter(issued?: Set<string>, o: { neverConsumed?: ReadonlySet<string> } = {}): new (name: string) => Adapter {
  const entries = new Map<string, Entry>();
  const byUid = new Map<string, string>();
  const byUserCode = new Map<string, string>();
  const byGrant = new Map<string, Set<string>>();

  const live = (key: string): AdapterPayload | undefined => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry.payload;
  };

  return class SandboxAdapter implements Adapter {
    readonly name: string;
    constructor(name: string) {
      this.name = name;
    }
    private key(id: string) {
      return `${this.name}:${id}`;
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
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
      return live(this.key(id));
    }
    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const id = byUid.get(uid);
      return id ? this.find(id) : undefined;
    }
    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      const id = byUserCode.get(userCode);
      return id ? this.find(id) : undefined;
    }
    async consume(id: string): Promise<void> {
      // A fault's model whose entries are never consumed (authorization-code-reusable, par-request-uri-reusable).
      if (o.neverConsumed?.has(this.name)) return;
      const payload = live(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string): Promise<void> {
      entries.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string): Promise<void> {
      for (const key of byGrant.get(grantId) ?? []) entries.delete(key);
      byGrant.delete(grantId);
    }
  };
}
