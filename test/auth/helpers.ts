/** Shared set-up for the auth tests: a profile, an HttpClient and an Auth for one sandbox client. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Auth } from '../../src/auth/index.ts';
import { httpFromProfile } from '../../src/client/factory.ts';
import type { HttpClient } from '../../src/client/http.ts';
import { profileFromObject } from '../../src/profile/load.ts';
import type { Profile } from '../../src/profile/types.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { PsuBrowser } from '../../src/psu/index.ts';

export interface Tpp {
  profile: Profile;
  http: HttpClient;
  auth: Auth;
}

/** A TPP for the sandbox's client `clientIndex`; `patch` edits the raw profile before it is validated. */
export async function tppFor(sb: Sandbox, clientIndex = 0, patch: (raw: Record<string, any>) => void = () => undefined): Promise<Tpp> {
  const raw = structuredClone(sb.profile('A', clientIndex)) as Record<string, any>;
  patch(raw);
  const profile = await profileFromObject(raw, { source: 'sandbox', env: {} });
  const http = httpFromProfile(profile, { warn: () => undefined });
  const auth = await Auth.create(profile, http);
  return { profile, http, auth };
}

/** What an auth test file shares: one sandbox, one PSU browser, a folder for journey evidence. */
export interface AuthFixture {
  sb: Sandbox;
  browser: PsuBrowser;
  evidenceDir: string;
}

/** Starts a file's fixture (its evidence folder named with `prefix`). */
export async function openFixture(prefix: string): Promise<AuthFixture> {
  return { sb: await startSandbox({ quiet: true }), browser: new PsuBrowser({ env: process.env }), evidenceDir: mkdtempSync(join(tmpdir(), prefix)) };
}

/** Stops a fixture and the HTTP clients of the TPPs made on it. */
export async function closeFixture(f: Partial<AuthFixture>, tpps: Tpp[]): Promise<void> {
  await f.browser?.close();
  for (const t of tpps) await t.http.close();
  await f.sb?.stop();
  if (f.evidenceDir) rmSync(f.evidenceDir, { recursive: true, force: true });
}

const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, '+00:00');

/** Creates an AIS consent (the body from docs/wire.md) with a client-credentials token; returns its ConsentId. */
export async function createAisConsent(tpp: Tpp, baseUrl: string): Promise<string> {
  const token = await tpp.auth.clientCredentials('ais');
  const day = 86_400_000;
  const now = Date.now();
  const res = await tpp.http.request<{ Data?: { ConsentId?: string } }>('POST', `${baseUrl}${tpp.profile.paths.accountAccessConsents}`, {
    headers: { authorization: `Bearer ${token.accessToken}`, 'x-idempotency-key': crypto.randomUUID().slice(0, 36) },
    json: {
      Data: {
        Permissions: ['ReadAccountsDetail', 'ReadBalances', 'ReadTransactionsDetail', 'ReadTransactionsCredits', 'ReadTransactionsDebits'],
        ExpirationDateTime: iso(new Date(now + 180 * day)),
        TransactionFromDateTime: iso(new Date(now - 365 * day)),
        TransactionToDateTime: iso(new Date(now)),
      },
      Risk: {},
    },
  });
  const id = res.body?.Data?.ConsentId;
  if (res.status !== 201 || !id) throw new Error(`creating the consent failed: ${res.status} ${res.text.slice(0, 300)}`);
  return id;
}

/** GET /accounts with an access token; the AccountIds it lists. */
export async function accountIds(tpp: Tpp, baseUrl: string, accessToken: string): Promise<string[]> {
  const res = await tpp.http.request<{ Data?: { Account?: Array<{ AccountId: string }> } }>('GET', `${baseUrl}${tpp.profile.paths.accounts}`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  if (res.status !== 200) throw new Error(`GET /accounts answered ${res.status} ${res.text.slice(0, 300)}`);
  return (res.body?.Data?.Account ?? []).map((a) => a.AccountId);
}
