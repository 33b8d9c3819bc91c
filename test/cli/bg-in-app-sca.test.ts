/**
 * `obtpp consent authorise` in the decoupled and embedded SCA approaches of a berlin-group
 * profile, through the real binary against one in-process sandbox offering both (no browser):
 * decoupled, obtpp tells the PSU to approve in the banking app and polls the scaStatus while the
 * PSU approves on the bank's app page (posted here by fetch), and gives up after --timeout;
 * embedded, the password and the one-time password come from the profile or from stdin
 * (--password-stdin, --otp-stdin, which win over the profile) and never reach a terminal or the state file; consents and
 * payments alike, --json. Build first (npm run build).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { SANDBOX_OTP } from '../../src/sandbox/berlin-group/index.ts';
import { bin } from '../helpers/obtpp.ts';

type Run = { code: number | null; stdout: string; stderr: string };
let sb: Sandbox;
let dir: string;
const outputs: string[] = [];

/** obtpp with `input` on stdin; `onStderr` sees stderr as it comes. */
function obtpp(args: string[], o: { input?: string; onStderr?: (text: string) => void } = {}): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir, NO_COLOR: '1', CI: 'true' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      o.onStderr?.(stderr);
    });
    child.stdin.end(o.input ?? '');
    const timer = setTimeout(() => child.kill(), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      outputs.push(stdout, stderr);
      done({ code, stdout, stderr });
    });
  });
}

/** A profile for the sandbox whose only approach is this one (no auth block: no OAuth2). */
async function profileFile(name: string, approach: 'decoupled' | 'embedded', o: { withoutSecrets?: boolean } = {}): Promise<string> {
  const raw: any = sb.profile('A');
  raw.sca.approaches = [approach];
  if (o.withoutSecrets) {
    // No one-time password, and a password that is not the PSU's: what stdin gives must win.
    delete raw.sca.otp;
    raw.psu.password = 'not-the-password';
  }
  const file = join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(raw));
  return file;
}

/** The PSU approves the authorisation in the bank's app (its two forms, as a browser posts them). */
async function approveInApp(authorisationId: string): Promise<void> {
  const alice = sb.psus[0]!;
  const post = (path: string, form: Record<string, string>) => fetch(`${sb.issuer}/bg/app/${authorisationId}${path}`, {
    method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString(),
  });
  assert.equal((await post('/login', { username: alice.username, password: alice.password })).status, 303);
  const form = new URLSearchParams({ decision: 'approve' });
  for (const a of alice.accounts) form.append('accounts', a.AccountId);
  const decided = await fetch(`${sb.issuer}/bg/app/${authorisationId}/confirm`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  assert.match(await decided.text(), /data-testid="sca-done"/);
}

before(async () => {
  assert.ok(existsSync(bin), `${bin} is missing: build first (npm run build)`);
  dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-inapp-'));
  sb = await startSandbox({ dialect: 'berlin-group', sca: ['decoupled', 'embedded'] });
});
after(async () => {
  await sb?.stop();
  // No secret on any terminal: the PSU's password and the one-time password.
  const alice = sb.psus[0]!;
  for (const text of outputs) {
    assert.ok(!text.includes(alice.password), 'the PSU\'s password on a terminal');
    assert.ok(!text.includes(SANDBOX_OTP), 'the one-time password on a terminal');
  }
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('decoupled: obtpp asks the PSU to approve in the app, polls the scaStatus, and the consent is authorised (--json)', async () => {
  const profile = await profileFile('decoupled', 'decoupled');
  const state = join(dir, 'decoupled-state.json');
  const created = await obtpp(['consent', 'create', 'ais', '--profile', profile, '--state', state, '--json']);
  assert.equal(created.code, 0, created.stderr);
  const saved = JSON.parse(await readFile(state, 'utf8'));
  const record: any = Object.values(JSON.stringify(saved).includes('"decoupled"') ? findRecords(saved) : {})[0];
  assert.equal(record?.sca?.approach, 'decoupled', JSON.stringify(saved).slice(0, 400));
  const authorisationId = String(record.sca.href).split('/').at(-1)!;
  let approved: Promise<void> | undefined;
  const r = await obtpp(['consent', 'authorise', '--profile', profile, '--state', state, '--json', '--timeout', '30'], {
    // The PSU approves once obtpp has told them to.
    onStderr: (text) => void (/approve .* in your banking app/.test(text) && (approved ??= approveInApp(authorisationId))),
  });
  await approved;
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /approve the consent .* in your banking app \(alice\)/);
  assert.deepEqual(JSON.parse(r.stdout), { status: 'authorised', consentId: record.id, fn: 'ais', accounts: [] });
  const accounts = await obtpp(['accounts', '--profile', profile, '--state', state, '--json']);
  assert.equal(accounts.code, 0, accounts.stderr);
});

test('decoupled: a PSU who does not approve in time ends the wait after --timeout (exit 2, the hint says what to do)', async () => {
  const profile = await profileFile('decoupled-late', 'decoupled');
  const state = join(dir, 'late-state.json');
  assert.equal((await obtpp(['consent', 'create', 'ais', '--profile', profile, '--state', state])).code, 0);
  const started = Date.now();
  const r = await obtpp(['consent', 'authorise', '--profile', profile, '--state', state, '--timeout', '1.5']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /did not approve in time: the authorisation .* still reads psuIdentified/);
  assert.ok(Date.now() - started < 20_000);
  const bad = await obtpp(['consent', 'authorise', '--profile', profile, '--state', state, '--timeout', 'soon']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--timeout soon: a number of seconds/);
});

test('embedded: password and one-time password from stdin, never echoed; a payment too; a wrong one-time password is the PSU\'s rejection', async () => {
  const profile = await profileFile('embedded', 'embedded', { withoutSecrets: true });
  const alice = sb.psus[0]!;
  const state = join(dir, 'embedded-state.json');
  assert.equal((await obtpp(['consent', 'create', 'ais', '--profile', profile, '--state', state])).code, 0);
  const missing = await obtpp(['consent', 'authorise', '--profile', profile, '--state', state, '--password-stdin'], { input: `${alice.password}\n` });
  assert.equal(missing.code, 2, missing.stderr);
  assert.match(missing.stderr, /needs the PSU's one-time password, and none was given/);
  assert.match(missing.stderr, /--otp-stdin/);
  const r = await obtpp(['consent', 'authorise', '--profile', profile, '--state', state, '--password-stdin', '--otp-stdin', '--json'], { input: `${alice.password}\n${SANDBOX_OTP}\n` });
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.equal(JSON.parse(r.stdout).status, 'authorised');
  const stateText = await readFile(state, 'utf8');
  assert.ok(!stateText.includes(alice.password) && !stateText.includes(SANDBOX_OTP), 'no secret in the state file');
  // A payment, its one-time password wrong: the SCA fails, the PSU's doing (exit 1).
  const iban = sb.psus[0]!.accounts[0]!.iban!;
  const pay = await obtpp(['consent', 'create', 'pis', '--profile', profile, '--state', state, '--amount', '1.00', '--debtor-iban', iban, '--creditor-iban', 'DE89370400440532013000', '--creditor-name', 'Bob Baker']);
  assert.equal(pay.code, 0, pay.stderr);
  const wrong = await obtpp(['consent', 'authorise', '--profile', profile, '--state', state, '--password-stdin', '--otp-stdin', '--json'], { input: `${alice.password}\n000000\n` });
  assert.equal(wrong.code, 1, wrong.stderr);
  const outcome = JSON.parse(wrong.stdout);
  assert.equal(outcome.status, 'rejected');
  assert.match(outcome.description, /the SCA ended failed/);
});

test('embedded with the profile\'s secrets: the payment is authorised; the in-app flags are refused where they mean nothing', async () => {
  const profile = await profileFile('embedded-profile', 'embedded');
  const state = join(dir, 'embedded-profile-state.json');
  const iban = sb.psus[0]!.accounts[0]!.iban!;
  assert.equal((await obtpp(['consent', 'create', 'pis', '--profile', profile, '--state', state, '--amount', '1.00', '--debtor-iban', iban, '--creditor-iban', 'DE89370400440532013000', '--creditor-name', 'Bob Baker'])).code, 0);
  const r = await obtpp(['consent', 'authorise', '--profile', profile, '--state', state]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /authorised payment/);
  const reject = await obtpp(['consent', 'authorise', '--profile', profile, '--state', state, '--reject']);
  assert.equal(reject.code, 2);
  assert.match(reject.stderr, /--reject: in the embedded SCA approach/);
});

/** The consent records of a state file, wherever its layout keeps them. */
function findRecords(state: any): Record<string, any> {
  const out: Record<string, any> = {};
  const walk = (v: any) => {
    if (!v || typeof v !== 'object') return;
    if (v.consents && typeof v.consents === 'object') Object.assign(out, v.consents);
    for (const x of Object.values(v)) walk(x);
  };
  walk(state);
  return out;
}

