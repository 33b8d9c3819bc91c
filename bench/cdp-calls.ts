/**
 * DevTools protocol traffic of one PSU journey: the messages puppeteer sends (by method) and
 * receives (responses and events), averaged over N sandbox journeys through one reused browser.
 * Counted on puppeteer's CDP connection (its internal Connection class, wrapped here only).
 *
 *   node bench/cdp-calls.ts [N=5]
 */
import { authorise } from '../src/auth/index.ts';
import { sandboxJourneys } from './sandbox-journeys.ts';

const n = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 5);
// puppeteer's CDP connection class; its file has no export map entry, so it is reached by path.
const { Connection } = (await import(new URL('../node_modules/puppeteer-core/lib/puppeteer/cdp/Connection.js', import.meta.url).href)) as { Connection: any };
const sent = new Map<string, number>();
const received = new Map<string, number>();
let counting = false;
const rawSend = Connection.prototype._rawSend;
Connection.prototype._rawSend = function (this: unknown, callbacks: unknown, method: string, ...rest: unknown[]) {
  if (counting) sent.set(method, (sent.get(method) ?? 0) + 1);
  return rawSend.call(this, callbacks, method, ...rest);
};
const onMessage = Connection.prototype.onMessage;
Connection.prototype.onMessage = function (this: unknown, message: string) {
  if (counting) {
    const kind = (JSON.parse(message) as { method?: string }).method ?? '(response)';
    received.set(kind, (received.get(kind) ?? 0) + 1);
  }
  return onMessage.call(this, message);
};

const bench = await sandboxJourneys();
try {
  const { ctx } = bench;
  const consent = () => bench.consent(['ReadAccountsDetail', 'ReadBalances']);
  // The first journey launches Chromium: not counted.
  await authorise(ctx, { intentId: await consent(), fn: 'ais' });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await consent());
  counting = true;
  for (const intentId of ids) await authorise(ctx, { intentId, fn: 'ais' });
  // The wipe after the last journey runs in the background: let it finish.
  await new Promise((r) => setTimeout(r, 500));
  counting = false;
  const table = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).map(([k, v]) => `  ${(v / n).toFixed(1).padStart(6)}  ${k}`).join('\n');
  const total = (m: Map<string, number>) => ([...m.values()].reduce((a, b) => a + b, 0) / n).toFixed(1);
  console.log(`DevTools messages per sandbox journey (${n} journeys, one browser reused)`);
  console.log(`sent: ${total(sent)}\n${table(sent)}`);
  console.log(`received: ${total(received)}\n${table(received)}`);
} finally {
  await bench.close();
}
