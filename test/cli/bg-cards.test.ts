/**
 * `obtpp accounts --cards` and `consent create ais --access` against a berlin-group profile
 * (issue 28, card accounts), through the real binary and `obtpp sandbox --dialect berlin-group
 * --write-profile`: an allPsd2 consent, authorised by the PSU (redirect SCA in Chromium), lists the
 * PSU's card accounts by masked PAN, human and --json, and reads one; both flags are refused on a
 * UK profile, and an unknown access form, in one line (exit 2). Build first (npm run build).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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

type Run = { code: number; stdout: string; stderr: string };
/** `obtpp …args` in the test's folder, with its bare environment (in a warm worker: test/helpers/obtpp.ts). */
async function obtpp(args: string[]): Promise<Run> {
  const { code, stdout, stderr } = await runObtpp(args, { cwd: dir, env: env(), inherit: false, timeoutMs: 120_000 });
  return { code, stdout, stderr };
}
const bg = (...args: string[]) => obtpp([...args, '--profile', bgFile, '--state', join(dir, 'bg.json')]);
const ok = (r: Run) => (assert.equal(r.code, 0, r.stderr), r);
const doc = (r: Run) => JSON.parse(ok(r).stdout);
function refused(r: Run, what: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, what);
  assert.equal(r.stdout, '');
}

before(async () => {
  assert.ok(existsSync(bin), `${bin} is missing: build first (npm run build)`);
  dir = await mkdtemp(join(tmpdir(), 'obtpp-bgcards-'));
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
  await rm(dir, { recursive: true, force: true });
});

test('an allPsd2 consent (--access all-psd2) opens the card accounts: accounts --cards lists them by masked PAN, and reads one', async () => {
  const created = doc(await bg('consent', 'create', 'ais', '--access', 'all-psd2', '--json'));
  ok(await bg('consent', 'authorise'));
  assert.deepEqual(doc(await bg('consent', 'get', created.consentId, '--json')).access, { allPsd2: 'allAccounts' });

  const list = doc(await bg('accounts', '--cards', '--json'));
  assert.equal(list.cardAccounts.length, 2, 'the first PSU has two card accounts');
  const [card] = list.cardAccounts as Array<{ resourceId: string; maskedPan: string; name: string }>;
  assert.match(card.maskedPan, /^\d{6}\*{6}\d{4}$/);
  const human = ok(await bg('accounts', '--cards'));
  assert.match(human.stdout, /^CARD ACCOUNT\s+NAME\s+CCY\s+PRODUCT\s+MASKED PAN$/m);
  assert.match(human.stdout, new RegExp(`^${card.resourceId}\\s+${card.name}\\s+EUR\\s+.*${card.maskedPan.replaceAll('*', '\\*')}$`, 'm'));
  assert.equal(doc(await bg('accounts', card.resourceId, '--cards', '--json')).cardAccount.maskedPan, card.maskedPan);
  // The accounts themselves, as before: --cards is what switches to card accounts.
  assert.ok(doc(await bg('accounts', '--json')).accounts.length >= 1);
});

test('--cards and --access are berlin-group terms: refused on a UK profile; an unknown access form is refused', async () => {
  const state = join(dir, 'uk-state.json');
  refused(await obtpp(['accounts', '--cards', '--profile', ukFile, '--state', state]), /--cards reads NextGenPSD2 card accounts/);
  refused(await obtpp(['consent', 'create', 'ais', '--access', 'all-psd2', '--profile', ukFile, '--state', state]), /--access is a berlin-group term/);
  refused(await bg('consent', 'create', 'ais', '--access', 'everything'), /--access everything: expected one of bank-offered, all-psd2, available-accounts, available-accounts-with-balance/);
});
