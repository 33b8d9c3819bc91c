/**
 * The CLI speaks Berlin Group (issue 28, item 5), through the real binary against one
 * `obtpp sandbox --dialect berlin-group`: the bank's tppMessages code and text in errors; hints
 * and words of NextGenPSD2 (no ConsentId, Permissions, "payment-order consent"); a payment the
 * bank rejects after the PSU approved it is not blamed on the PSU; `consent list` reads each
 * status afresh (a former recurring consent the bank expired reads expired) and shows the access
 * a consent grants; `consent delete` without --consent ends the current consent, never a payment;
 * the transactions table marks booked and pending rows as the bank listed them.
 * Build first (npm run build).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runObtpp } from '../helpers/obtpp.ts';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const bin = join(root, 'dist/src/cli/main.js');
const env = () => ({ PATH: process.env.PATH ?? '', NO_COLOR: '1', HOME: dir, ...(process.env.PUPPETEER_EXECUTABLE_PATH ? { PUPPETEER_EXECUTABLE_PATH: process.env.PUPPETEER_EXECUTABLE_PATH } : {}), ...(process.env.OBTPP_BROWSER_WS_ENDPOINT ? { OBTPP_BROWSER_WS_ENDPOINT: process.env.OBTPP_BROWSER_WS_ENDPOINT } : {}) });
let dir: string;
let child: ChildProcess | undefined;
let file: string;
let ibans: Record<string, string>;

type Run = { code: number; stdout: string; stderr: string };
/** `obtpp …args` in the test's folder, with its bare environment (in a warm worker: test/helpers/obtpp.ts). */
async function obtpp(args: string[]): Promise<Run> {
  const { code, stdout, stderr } = await runObtpp(args, { cwd: dir, env: env(), inherit: false, timeoutMs: 120_000 });
  return { code, stdout, stderr };
}
const bg = (state: string, ...args: string[]) => obtpp([...args, '--profile', file, '--state', join(dir, state)]);
const ok = (r: Run) => (assert.equal(r.code, 0, r.stderr), r);
const doc = (r: Run) => JSON.parse(ok(r).stdout);
/** No UK Open Banking word in what a berlin-group user reads. */
function noUkWords(text: string): void {
  assert.doesNotMatch(text, /ConsentId|Permissions|permissions|payment-order consent|account-access consent/, text);
}

before(async () => {
  assert.ok(existsSync(bin), `${bin} is missing: build first (npm run build)`);
  dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-cli-'));
  file = join(dir, 'bg.yaml');
  child = spawn(process.execPath, [bin, 'sandbox', '--dialect', 'berlin-group', '--write-profile', file], { cwd: dir, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  await new Promise<void>((ready, fail) => {
    child!.stdout!.on('data', (d) => {
      out += String(d);
      if (out.includes('profile:')) ready();
    });
    child!.once('exit', (code) => fail(new Error(`the sandbox exited ${code}`)));
  });
  ibans = Object.fromEntries([...out.matchAll(/([a-z]+-[a-z]+) \((DE\d{20})\)/g)].map((m) => [m[1], m[2]]));
  assert.ok(ibans['alice-current'] && ibans['bob-current'], out);
});

after(async () => {
  if (child?.pid && child.exitCode === null) {
    child.kill('SIGINT');
    await new Promise((r) => child!.once('exit', r));
  }
  await rm(dir, { recursive: true, force: true });
});

test('consents: the former recurring one reads expired in consent list (read afresh) and its refusal shows the bank\'s code and text; the list shows the access; the transactions table marks booked and pending rows as the bank listed them; delete ends the current consent, never a payment', async () => {
  const none = await bg('c.json', 'accounts');
  assert.equal(none.code, 2, none.stderr);
  assert.match(none.stderr, /no current consent for profile .*obtpp consent create ais/);
  noUkWords(none.stderr);

  const first = doc(await bg('c.json', 'consent', 'create', 'ais', '--json')).consentId as string;
  ok(await bg('c.json', 'consent', 'authorise', '--accounts', 'alice-current'));
  const second = doc(await bg('c.json', 'consent', 'create', 'ais', '--json')).consentId as string;
  const authorised = ok(await bg('c.json', 'consent', 'authorise', '--accounts', 'alice-current'));
  assert.match(authorised.stdout, new RegExp(`^authorised consent ${second}`, 'm'));

  // The bank expired the first when the second was authorised: the list says so, read afresh.
  const listed = doc(await bg('c.json', 'consent', 'list', '--json')).consents as Array<{ id: string; status: string }>;
  assert.deepEqual(listed.map((c) => [c.id, c.status]), [[first, 'expired'], [second, 'valid']]);
  const table = ok(await bg('c.json', 'consent', 'list'));
  assert.match(table.stdout, new RegExp(`${first}\\s+ais\\s+expired\\b.*accounts, balances, transactions \\(the PSU picks the accounts\\); accounts alice-current`));
  noUkWords(table.stdout);

  // Under the expired consent: the bank's code and text, a hint in NextGenPSD2 words.
  const refused = await bg('c.json', 'accounts', '--consent', first);
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, /the bank refused GET \/v1\/accounts: 401 CONSENT_EXPIRED: the consent has expired/);
  assert.match(refused.stderr, /a newer recurring consent of the PSU ends the former one/);
  assert.doesNotMatch(refused.stderr, /REDACTED/);
  noUkWords(refused.stderr);

  // The transactions table under the current consent: booked and pending rows as the bank listed them.
  const body = doc(await bg('c.json', 'transactions', 'alice-current', '--booking-status', 'both', '--json'));
  const pending = body.transactions.pending as Array<{ transactionAmount: { amount: string }; creditorName: string }>;
  assert.ok(pending.length >= 1 && body.transactions.booked.length >= 1, JSON.stringify(body.transactions).slice(0, 300));
  const transactions = ok(await bg('c.json', 'transactions', 'alice-current', '--booking-status', 'both')).stdout;
  const rows = transactions.split('\n').filter((l) => /\s(booked|pending)\s/.test(l));
  assert.equal(rows.filter((l) => /^\d{4}-\d{2}-\d{2}\s+booked\s/.test(l)).length, body.transactions.booked.length, transactions);
  // A pending transaction has no booking date: none is made up from its value date.
  assert.equal(rows.filter((l) => /^—\s+pending\s/.test(l)).length, pending.length, transactions);
  assert.match(transactions, new RegExp(`^—\\s+pending\\s+${pending[0]!.transactionAmount.amount.replace('.', '\\.')} EUR\\s+${pending[0]!.creditorName}`, 'm'));

  // A payment created last: delete without --consent still ends the current consent, not the payment.
  const payment = doc(await bg('c.json', 'consent', 'create', 'pis', '--amount', '2.00', '--debtor-iban', ibans['alice-current']!, '--creditor-iban', ibans['bob-current']!, '--creditor-name', 'Bob Baker', '--json')).paymentId as string;
  const deleted = ok(await bg('c.json', 'consent', 'delete'));
  assert.match(deleted.stdout, new RegExp(`^deleted consent ${second} \\(204\\)`, 'm'));
  assert.equal(doc(await bg('c.json', 'payment', 'status', payment, '--json')).transactionStatus, 'RCVD', 'the payment is untouched');
  const notAConsent = await bg('c.json', 'consent', 'delete', '--consent', payment);
  assert.equal(notAConsent.code, 2, notAConsent.stderr);
  assert.match(notAConsent.stderr, new RegExp(`${payment} is a payment, not a consent`));
  noUkWords(notAConsent.stderr);
});

test('a payment the bank rejects after the PSU approved it is the bank\'s rejection, not the PSU\'s; the bank\'s error code and text on a refused request', async () => {
  ok(await bg('p.json', 'consent', 'create', 'pis', '--amount', '999999.00', '--debtor-iban', ibans['alice-current']!, '--creditor-iban', ibans['bob-current']!, '--creditor-name', 'Bob Baker'));
  const human = await bg('p.json', 'consent', 'authorise');
  assert.equal(human.code, 1, 'the payment was not made');
  assert.match(human.stdout, /^the bank rejected payment \S+ after the PSU's SCA: RJCT/m);
  assert.doesNotMatch(human.stdout + human.stderr, /the PSU rejected/);
  assert.match(ok(await bg('p.json', 'payment', 'status')).stdout, /: RJCT$/m);

  // A consent the bank refuses: its tppMessages code and text, not a bare status.
  const past = await bg('p.json', 'consent', 'create', 'ais', '--expires', '2001-01-01T00:00:00Z');
  assert.equal(past.code, 1, past.stderr);
  assert.match(past.stderr, /the bank refused POST \/v1\/consents: 400 FORMAT_ERROR: validUntil is in the past/);
});
