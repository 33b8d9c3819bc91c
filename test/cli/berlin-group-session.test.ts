/**
 * The TPP commands against a berlin-group profile (issue 15, item 5), through the real binary and
 * `obtpp sandbox --dialect berlin-group --write-profile`: balances, transactions (bookingStatus,
 * dateFrom/dateTo from --from/--to) and one transaction's details under the consent; a payment
 * initiated (consent create pis → POST /v1/payments/{payment-product}), authorised by the PSU
 * (redirect SCA in Chromium, and OAuth2 SCA) and read back accepted; each dialect's own flags
 * refused on the other's profile in one line (exit 2); no secret on any terminal.
 * Build first (npm run build).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { runObtpp } from '../helpers/obtpp.ts';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const bin = join(root, 'dist/src/cli/main.js');
const env = () => ({ PATH: process.env.PATH ?? '', NO_COLOR: '1', HOME: dir, ...(process.env.PUPPETEER_EXECUTABLE_PATH ? { PUPPETEER_EXECUTABLE_PATH: process.env.PUPPETEER_EXECUTABLE_PATH } : {}), ...(process.env.OBTPP_BROWSER_WS_ENDPOINT ? { OBTPP_BROWSER_WS_ENDPOINT: process.env.OBTPP_BROWSER_WS_ENDPOINT } : {}) });
let dir: string;
let child: ChildProcess | undefined;
let uk: Sandbox | undefined;
let bgFile: string;
let ukFile: string;
let ibans: Record<string, string>;
const outputs: string[] = [];

type Run = { code: number; stdout: string; stderr: string };
/** `obtpp …args` in the test's folder, with its bare environment (in a warm worker: test/helpers/obtpp.ts). */
async function obtpp(args: string[]): Promise<Run> {
  const { code, stdout, stderr } = await runObtpp(args, { cwd: dir, env: env(), inherit: false, timeoutMs: 120_000 });
  outputs.push(stdout, stderr);
  return { code, stdout, stderr };
}
const bg = (state: string, ...args: string[]) => obtpp([...args, '--profile', bgFile, '--state', join(dir, state)]);
const ok = (r: Run) => (assert.equal(r.code, 0, r.stderr), r);
const doc = (r: Run) => JSON.parse(ok(r).stdout);
/** A usage error: exit 2, one line on stderr matching `what`, nothing on stdout. */
function refused(r: Run, what: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, what);
  assert.equal(r.stdout, '');
}

before(async () => {
  assert.ok(existsSync(bin), `${bin} is missing: build first (npm run build)`);
  dir = await mkdtemp(join(tmpdir(), 'obtpp-bgcli-'));
  bgFile = join(dir, 'bg.yaml');
  child = spawn(process.execPath, [bin, 'sandbox', '--dialect', 'berlin-group', '--write-profile', bgFile], { cwd: dir, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
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
  uk = await startSandbox({ quiet: true });
  ukFile = join(dir, 'uk.json');
  await writeFile(ukFile, JSON.stringify(uk.profile()), { mode: 0o600 });
});

after(async () => {
  if (child?.pid && child.exitCode === null) {
    child.kill('SIGINT');
    await new Promise((r) => child!.once('exit', r));
  }
  await uk?.stop();
  // No secret reached a terminal: the PSU's password, the client secret, any token obtpp kept.
  const profile = parse(await readFile(bgFile, 'utf8'));
  const secrets = [profile.psu.password, profile.auth.clientAuth?.secret].filter((s): s is string => typeof s === 'string' && s.length > 0);
  for (const file of ['redirect.json', 'oauth.json']) {
    if (!existsSync(join(dir, file))) continue;
    const state = JSON.parse(await readFile(join(dir, file), 'utf8'));
    for (const entry of Object.values(state.profiles) as Array<{ tokens: Record<string, { accessToken: string; refreshToken?: string }> }>) {
      for (const t of Object.values(entry.tokens)) secrets.push(t.accessToken, ...(t.refreshToken ? [t.refreshToken] : []));
    }
  }
  assert.ok(secrets.length >= 3, 'the secrets to look for');
  for (const s of secrets) assert.ok(!outputs.some((o) => o.includes(s)), 'a secret reached the terminal');
  await rm(dir, { recursive: true, force: true });
});

test('balances, transactions and one transaction under a berlin-group consent (redirect SCA), human and --json', async () => {
  ok(await bg('redirect.json', 'consent', 'create', 'ais'));
  ok(await bg('redirect.json', 'consent', 'authorise', '--accounts', 'alice-current'));

  const balances = doc(await bg('redirect.json', 'balances', 'alice-current', '--json'));
  assert.deepEqual(balances.account, { iban: ibans['alice-current'], currency: 'EUR' });
  assert.deepEqual(balances.balances.map((b: { balanceType: string }) => b.balanceType), ['closingBooked', 'interimAvailable']);
  const amount = balances.balances[0].balanceAmount.amount as string;
  const table = ok(await bg('redirect.json', 'balances', 'alice-current'));
  assert.match(table.stdout, /^TYPE\s+AMOUNT\s+CCY\s+DATE$/m);
  assert.match(table.stdout, new RegExp(`^closingBooked\\s+${amount.replace('.', '\\.')}\\s+EUR\\s+\\d{4}-\\d{2}-\\d{2}$`, 'm'));

  const all = doc(await bg('redirect.json', 'transactions', 'alice-current', '--booking-status', 'both', '--from', '-400d', '--json'));
  const booked = all.transactions.booked as Array<{ transactionId: string; bookingDate: string; transactionAmount: { amount: string } }>;
  assert.ok(booked.length > 3, 'alice has booked transactions');
  // --from/--to are dateFrom/dateTo: a window keeps only the transactions booked in it.
  const dates = booked.map((t) => t.bookingDate).sort();
  const [from, to] = [dates[1], dates[dates.length - 2]];
  const window = doc(await bg('redirect.json', 'transactions', 'alice-current', '--from', from, '--to', to, '--json'));
  const inWindow = booked.filter((t) => t.bookingDate >= from && t.bookingDate <= to).map((t) => t.transactionId).sort();
  assert.deepEqual(window.transactions.booked.map((t: { transactionId: string }) => t.transactionId).sort(), inWindow);
  assert.ok(inWindow.length < booked.length, 'the window left some out');
  const human = ok(await bg('redirect.json', 'transactions', 'alice-current', '--from', '-400d'));
  assert.match(human.stdout, /^BOOKED\s+STATUS\s+AMOUNT\s+ID\s+COUNTERPARTY\s+INFORMATION$/m);
  const first = booked[0];
  assert.match(human.stdout, new RegExp(`^${first.bookingDate}\\s+booked\\s+${first.transactionAmount.amount.replace('.', '\\.')} EUR\\s+${first.transactionId}\\b`, 'm'));

  const detail = doc(await bg('redirect.json', 'transaction', 'alice-current', first.transactionId, '--json'));
  assert.equal(detail.transactionsDetails.transactionId, first.transactionId);
  const detailHuman = ok(await bg('redirect.json', 'transaction', 'alice-current', first.transactionId));
  assert.match(detailHuman.stdout, new RegExp(`^transactionId\\s+${first.transactionId}$`, 'm'));

  refused(await bg('redirect.json', 'transactions', 'alice-current', '--booking-status', 'information'), /--booking-status information: expected one of booked, pending, both, all/);
  // An account outside the consent: the bank's refusal, not a usage error.
  const outside = await bg('redirect.json', 'balances', 'alice-savings');
  assert.equal(outside.code, 1, outside.stderr);
  assert.match(outside.stderr, /\/v1\/accounts\/alice-savings\/balances: 403/);
});

test('a berlin-group payment: consent create pis → consent authorise (redirect SCA) → payment status ACSC (instant); a rejection is RJCT', async () => {
  const pay = (...extra: string[]) => bg('redirect.json', 'consent', 'create', 'pis', '--amount', '12.50', '--debtor-iban', ibans['alice-current'], '--creditor-iban', ibans['bob-current'], '--creditor-name', 'Bob Baker', ...extra);
  const created = doc(await pay('--product', 'instant-sepa-credit-transfers', '--reference', 'lunch', '--json'));
  assert.equal(created.transactionStatus, 'RCVD');
  assert.match(created.paymentId, /\S/);
  assert.ok(created._links.scaRedirect.href, 'the redirect approach, the profile\'s first');
  const listed = doc(await bg('redirect.json', 'consent', 'list', '--json')).consents.find((c: { id: string }) => c.id === created.paymentId);
  assert.deepEqual([listed.fn, listed.product, listed.current], ['pis', 'instant-sepa-credit-transfers', true]);

  const authorised = doc(await bg('redirect.json', 'consent', 'authorise', '--json'));
  assert.deepEqual(authorised, { status: 'authorised', consentId: created.paymentId, fn: 'pis', accounts: [] });
  assert.deepEqual(doc(await bg('redirect.json', 'payment', 'status', '--json')), { transactionStatus: 'ACSC' });
  assert.equal(ok(await bg('redirect.json', 'payment', 'status')).stdout.trim(), `payment ${created.paymentId}: ACSC`);
  const got = ok(await bg('redirect.json', 'payment', 'get', created.paymentId));
  assert.match(got.stdout, /^Status\s+ACSC$/m);
  assert.match(got.stdout, /^Amount\s+12\.50 EUR$/m);
  assert.match(got.stdout, new RegExp(`^Creditor\\s+${ibans['bob-current']} \\(Bob Baker\\)$`, 'm'));
  assert.match(got.stdout, /^Reference\s+lunch$/m);

  // The profile's product (sepa-credit-transfers) by default; the PSU rejects this one.
  const second = ok(await pay());
  assert.match(second.stdout, /^created payment (\S+) \(RCVD, SCA by redirect\); next: obtpp consent authorise/m);
  const rejected = doc(await bg('redirect.json', 'consent', 'authorise', '--reject', '--json'));
  assert.deepEqual([rejected.status, rejected.error], ['rejected', 'RJCT']);
  assert.match(ok(await bg('redirect.json', 'payment', 'status')).stdout, /: RJCT$/m);

  refused(await bg('redirect.json', 'payment', 'submit'), /payment submit is a UK step/);
  refused(await pay('--creditor-id', '30963452000417'), /--creditor-id: UK Open Banking terms/);
  refused(await pay('--product', 'wire-by-pigeon'), /--product wire-by-pigeon: expected one of sepa-credit-transfers, instant-sepa-credit-transfers/);
  refused(await bg('redirect.json', 'consent', 'create', 'pis', '--amount', '1.00', '--creditor-iban', ibans['bob-current'], '--creditor-name', 'Bob'), /--debtor-iban is required/);
  refused(await pay('--debtor-iban', 'not-an-iban'), /--debtor-iban not-an-iban: not an IBAN/);
});

test('with SCA by OAuth2: the payment in the scope (PIS:{paymentId}), then accepted; balances under an OAuth2 consent send its token', async () => {
  const oauthFile = join(dir, 'bg-oauth.yaml');
  await writeFile(oauthFile, (await readFile(bgFile, 'utf8')).replace(/sca:\n  approaches:\n    - redirect\n    - oauth/, 'sca:\n  approaches:\n    - oauth'));
  const o = (...args: string[]) => obtpp([...args, '--profile', oauthFile, '--state', join(dir, 'oauth.json')]);
  const created = doc(await o('consent', 'create', 'pis', '--amount', '3.00', '--debtor-iban', ibans['alice-current'], '--creditor-iban', ibans['bob-current'], '--creditor-name', 'Bob Baker', '--json'));
  assert.ok(created._links.scaOAuth, JSON.stringify(created));
  const authorised = doc(await o('consent', 'authorise', '--json'));
  assert.equal(authorised.status, 'authorised');
  assert.equal(authorised.scope, `PIS:${created.paymentId}`);
  assert.deepEqual(doc(await o('payment', 'status', '--json')), { transactionStatus: 'ACTC' });

  ok(await o('consent', 'create', 'ais'));
  ok(await o('consent', 'authorise', '--accounts', 'alice-current'));
  assert.equal(doc(await o('balances', 'alice-current', '--json')).account.iban, ibans['alice-current']);
  assert.ok(doc(await o('transactions', 'alice-current', '--json')).transactions.booked.length > 0);
});

test('obtpp flow ais and flow pis against a berlin-group profile; flow cof says what replaces it', async () => {
  const ais = doc(await bg('flow.json', 'flow', 'ais', '--accounts', 'alice-savings', '--json'));
  assert.equal(ais.flow, 'ais');
  assert.equal(ais.authorisation.status, 'authorised');
  assert.equal(ais.accountId, 'alice-savings');
  assert.deepEqual(ais.accounts.accounts.map((a: { resourceId: string }) => a.resourceId), ['alice-savings']);
  assert.equal(ais.balances.account.iban, ibans['alice-savings']);
  assert.ok(ais.transactions.transactions.booked.length > 0);
  const human = ok(await bg('flow.json', 'flow', 'ais', '--accounts', 'alice-savings'));
  assert.match(human.stdout, /^Balances of alice-savings$/m);
  assert.match(human.stdout, /^closingBooked\s+\S+\s+EUR/m);
  const pis = doc(await bg('flow.json', 'flow', 'pis', '--product', 'instant-sepa-credit-transfers', '--debtor-iban', ibans['alice-savings'], '--creditor-iban', ibans['bob-current'], '--creditor-name', 'Bob Baker', '--json'));
  assert.deepEqual([pis.flow, pis.product, pis.authorisation.status, pis.payment.instructedAmount.amount, pis.status.transactionStatus], ['pis', 'instant-sepa-credit-transfers', 'authorised', '10.00', 'ACSC']);
  refused(await bg('flow.json', 'flow', 'cof'), /flow cof: a berlin-group bank has no funds-confirmation consent to create .*obtpp funds confirm --iban/);
});

test('the Berlin Group flags on a UK profile are usage errors in one line (exit 2), before any call', async () => {
  const u = (...args: string[]) => obtpp([...args, '--profile', ukFile, '--state', join(dir, 'uk-state.json')]);
  refused(await u('transactions', 'alice-current', '--booking-status', 'pending'), /--booking-status is a berlin-group query parameter/);
  refused(await u('consent', 'create', 'pis', '--amount', '1.00', '--product', 'sepa-credit-transfers', '--creditor-iban', 'DE89370400440532013000'), /--product, --creditor-iban: berlin-group terms/);
  refused(await u('flow', 'pis', '--debtor-iban', 'DE89370400440532013000', '--creditor-id', '30963452000417', '--creditor-name', 'Bob'), /--debtor-iban: berlin-group terms/);
});
