/**
 * What the journey benchmarks share: the embedded sandbox (variant A), the TPP's profile, HTTP
 * client and OAuth client for it, one PsuBrowser, and account-access consents made with a
 * client-credentials token (each ready for a PSU journey).
 */
import { startSandbox } from '../src/sandbox/index.ts';
import { Auth } from '../src/auth/index.ts';
import { PsuBrowser } from '../src/psu/index.ts';
import { httpFromProfile } from '../src/client/factory.ts';
import { profileFromObject } from '../src/profile/load.ts';

const DAY = 86_400_000;
const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, '+00:00');

/** `adjust` may change the sandbox's profile (as YAML would give it) before it is loaded. */
export async function sandboxJourneys(adjust: (raw: Record<string, any>) => void = () => undefined) {
  const sb = await startSandbox({ quiet: true });
  const raw = sb.profile('A', 0) as Record<string, any>;
  adjust(raw);
  const profile = await profileFromObject(raw, { source: 'sandbox', env: {} });
  const http = httpFromProfile(profile, { warn: () => undefined });
  const browser = new PsuBrowser({ env: process.env });
  const auth = await Auth.create(profile, http);
  const cc = await auth.clientCredentials('ais');
  return {
    /** What `authorise()` takes as its first argument. */
    ctx: { auth, browser, profile },
    /** A new account-access consent awaiting authorisation: its ConsentId. */
    async consent(permissions = ['ReadAccountsDetail', 'ReadBalances', 'ReadTransactionsDetail', 'ReadTransactionsCredits', 'ReadTransactionsDebits']): Promise<string> {
      const now = Date.now();
      const res = await http.request<{ Data: { ConsentId: string } }>('POST', `${sb.baseUrls.A}/account-access-consents`, {
        headers: { authorization: `Bearer ${cc.accessToken}` },
        json: {
          Data: { Permissions: permissions, ExpirationDateTime: iso(new Date(now + 90 * DAY)), TransactionFromDateTime: iso(new Date(now - 365 * DAY)), TransactionToDateTime: iso(new Date(now)) },
          Risk: {},
        },
      });
      if (res.status !== 201) throw new Error(`consent creation answered ${res.status}`);
      return res.body!.Data.ConsentId;
    },
    async close(): Promise<void> {
      await browser.close();
      await http.close();
      await sb.stop();
    },
  };
}
