/**
 * `obtpp payment cancel` against a berlin-group profile (issue 28, payment cancellation), through
 * the real binary and the in-process NextGenPSD2 sandbox: a payment made by `consent create pis`
 * and not authorised is cancelled at once (204) and reads CANC; a scheduled payment's cancellation
 * is started and its page printed (202), the PSU authorises it there (forms posted by fetch: no
 * browser), and `payment status` reads CANC; a UK profile is refused in one line (exit 2). Build
 * first (npm run build).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { runObtpp } from '../helpers/obtpp.ts';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const bin = join(root, 'dist/src/cli/main.js');
let dir: string;
let sb: Sandbox;
let uk: Sandbox;
let bgFile: string;
let ukFile: string;

type Run = { code: number; stdout: string; stderr: string };
/** `obtpp …args` in the test's folder, with a bare environment (in a warm worker, the test run's Chromium: test/helpers/obtpp.ts). */
async function obtpp(args: string[]): Promise<Run> {
  const browser = process.env.OBTPP_BROWSER_WS_ENDPOINT ? { OBTPP_BROWSER_WS_ENDPOINT: process.env.OBTPP_BROWSER_WS_ENDPOINT } : {};
  const { code, stdout, stderr } = await runObtpp(args, { cwd: dir, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', HOME: dir, ...browser }, inherit: false, timeoutMs: 120_000 });
  return { code, stdout, stderr };
}
const bg = (...args: string[]) => obtpp([...args, '--profile', bgFile, '--state', join(dir, 'bg.json')]);
const ok = (r: Run) => (assert.equal(r.code, 0, r.stderr), r);

before(async () => {
  assert.ok(existsSync(bin), `${bin} is missing: build first (npm run build)`);
  dir = await mkdtemp(join(tmpdir(), 'obtpp-bgcancel-'));
  [sb, uk] = await Promise.all([startSandbox({ dialect: 'berlin-group', quiet: true }), startSandbox({ quiet: true })]);
  bgFile = join(dir, 'bg-profile.json');
  ukFile = join(dir, 'uk-profile.json');
  await writeFile(bgFile, JSON.stringify(sb.profile()), { mode: 0o600 });
  await writeFile(ukFile, JSON.stringify(uk.profile()), { mode: 0o600 });
});
after(async () => {
  await Promise.all([sb?.stop(), uk?.stop()]);
  await rm(dir, { recursive: true, force: true });
});

const debtor = () => (sb.psus[0]!.accounts[0] as { iban?: string }).iban!;

test('a payment not yet authorised: payment cancel answers cancelled, and payment status reads CANC', async () => {
  ok(await bg('consent', 'create', 'pis', '--debtor-iban', debtor(), '--creditor-iban', 'DE02120300000000202051', '--creditor-name', 'Payee', '--amount', '1.00'));
  const cancelled = ok(await bg('payment', 'cancel'));
  assert.match(cancelled.stdout, /^payment \S+ cancelled \(CANC\)/m);
  assert.match(ok(await bg('payment', 'status')).stdout, /: CANC$/m);
});

test('a scheduled payment: payment cancel starts the cancellation\'s authorisation and prints its page; once the PSU authorised it, payment status reads CANC', async () => {
  const created = await fetch(`${sb.baseUrls.A}/v1/payments/sepa-credit-transfers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-Request-ID': randomUUID(), 'PSU-IP-Address': '192.0.2.10', 'TPP-Redirect-URI': sb.clients[0].redirectUri },
    body: JSON.stringify({
      debtorAccount: { iban: debtor() }, instructedAmount: { currency: 'EUR', amount: '1.00' }, creditorAccount: { iban: 'DE02120300000000202051' },
      creditorName: 'Payee', requestedExecutionDate: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
    }),
  });
  const id = ((await created.json()) as { paymentId: string }).paymentId;
  const started = ok(await bg('payment', 'cancel', id));
  assert.match(started.stdout, /the bank asks the PSU to authorise the cancellation of payment/);
  const page = /the PSU authorises it at: (\S+)/.exec(started.stdout)?.[1];
  assert.ok(page, started.stdout);
  assert.match(ok(await bg('payment', 'status', id)).stdout, /: RCVD$/m, 'not cancelled before the PSU authorised it');
  const form = (url: string, fields: Record<string, string>) => fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  assert.equal((await form(`${page}/login`, { username: sb.psus[0]!.username, password: sb.psus[0]!.password })).status, 303);
  assert.equal((await form(`${page}/confirm`, { decision: 'approve' })).status, 303);
  assert.match(ok(await bg('payment', 'status', id)).stdout, /: CANC$/m);
});

test('payment cancel is refused on a UK profile, in one line', async () => {
  const r = await obtpp(['payment', 'cancel', 'p-1', '--profile', ukFile, '--state', join(dir, 'uk-state.json')]);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.equal(r.stdout, '');
});
