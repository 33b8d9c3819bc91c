/**
 * Harness overhead per exchange: the same authorised GET /accounts/{id}/transactions against the
 * in-process sandbox, N times (default 200), once with raw undici (a plain keep-alive Agent, body
 * read and JSON-parsed) and once through the tpp client (capture, redaction, Exchange) plus ajv
 * judging the body against OBReadTransaction6. Prints one JSON line per measurement.
 *   node bench/exchange.ts [N]
 */
import { Agent, request } from 'undici';
import { startSandbox } from '../src/sandbox/index.ts';
import { Auth, authorise } from '../src/auth/index.ts';
import { PsuBrowser } from '../src/psu/index.ts';
import { httpFromProfile } from '../src/client/factory.ts';
import { TppClient } from '../src/client/operations.ts';
import { profileFromObject } from '../src/profile/load.ts';
import { validate, buildAccountAccessConsent, isoDateTime, consentIdOf } from '../src/dialects/obie/index.ts';
import { stats } from './stats.ts';

const n = Number(process.argv[2] ?? 200);
const sb = await startSandbox({ quiet: true });
const profile = await profileFromObject(sb.profile('A', 0), { source: 'sandbox', env: {} });
const http = httpFromProfile(profile, { warn: () => undefined });
const browser = new PsuBrowser({ env: process.env });
const agent = new Agent({ keepAliveTimeout: 10_000 });
try {
  const auth = await Auth.create(profile, http);
  const client = new TppClient(profile, 'A', http);
  const cc = await auth.clientCredentials('ais');
  const body = buildAccountAccessConsent({
    permissions: ['ReadAccountsDetail', 'ReadTransactionsDetail', 'ReadTransactionsCredits', 'ReadTransactionsDebits'],
    expirationDateTime: isoDateTime(new Date(Date.now() + 86_400_000)),
    transactionFromDateTime: isoDateTime(new Date(Date.now() - 365 * 86_400_000)),
    transactionToDateTime: isoDateTime(new Date()),
  });
  const consent = consentIdOf((await client.createAccountAccessConsent(body, { token: cc.accessToken })).body)!;
  const result = await authorise({ auth, browser, profile }, { intentId: consent, fn: 'ais' });
  if (result.outcome !== 'authorised') throw new Error('authorisation failed');
  const token = result.tokens.accessToken;
  const accountId = ((await client.listAccounts({ token })).body as any).Data.Account[0].AccountId;
  const url = `${client.baseUrl}/accounts/${accountId}/transactions`;
  let bytes = 0;

  const raw = async () => {
    const r = await request(url, { dispatcher: agent, headers: { authorization: `Bearer ${token}`, 'x-fapi-interaction-id': crypto.randomUUID(), accept: 'application/json' } });
    const text = await r.body.text();
    bytes = text.length;
    JSON.parse(text);
  };
  const harness = async () => {
    const r = await client.getTransactions(accountId, { token });
    if (validate('OBReadTransaction6', r.body).length) throw new Error('invalid body');
  };
  for (let i = 0; i < 20; i++) { await raw(); await harness(); } // warm both paths (JIT, ajv compile)
  const measure = async (fn: () => Promise<void>) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await fn();
      out.push(performance.now() - t0);
    }
    return out;
  };
  // Interleaved rounds, so that machine noise hits both alike.
  const rawTimes: number[] = [];
  const harnessTimes: number[] = [];
  for (let round = 0; round < 4; round++) {
    rawTimes.push(...(await measure(raw)));
    harnessTimes.push(...(await measure(harness)));
  }
  const r = stats(rawTimes);
  const h = stats(harnessTimes);
  console.log(JSON.stringify({ name: `one exchange, raw undici (${Math.round(bytes / 1024)} KiB body)`, ...r }));
  console.log(JSON.stringify({ name: 'one exchange, tpp client + capture + redaction + ajv', ...h, note: `overhead ${(h.medianMs - r.medianMs).toFixed(2)} ms per exchange (median)` }));
} finally {
  await browser.close();
  await http.close();
  await agent.close();
  await sb.stop();
}
