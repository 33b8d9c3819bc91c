/**
 * Issue 25, items 9–12 and 14: careless or hostile input files. A baseline with wrong types is
 * refused before the run, in one line naming the field (exit 2); a profile of 40,000 keys
 * (over 256 KiB) is refused at once, one of 15,000 is reported in a screenful, a duplicated key is still an error; an
 * --attest key that is a FIFO or /dev/zero is refused at once, not read; `obtpp sandbox
 * --write-profile` refuses a symlink at its path and writes nothing through it; a cached
 * client-credentials token is reused only at the authorisation server that issued it. Build
 * first (npm run build): the CLI cases run the binary.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, runObtpp } from '../helpers/obtpp.ts';
import { loadProfile } from '../../src/profile/load.ts';
import { readKeyInput } from '../../src/attest/keys.ts';
import { readSummary } from '../../src/conformance/diff.ts';
import { ProfileError, UsageError } from '../../src/errors.ts';
import { StateFile, profileKey } from '../../src/session/state.ts';
import { Session } from '../../src/session/index.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';

let dir: string;

before(async () => {
  assert.ok(existsSync(bin), `${bin} is missing: build first (npm run build)`);
  dir = await mkdtemp(join(tmpdir(), 'obtpp-hostile-inputs-'));
});
after(() => rm(dir, { recursive: true, force: true }));

/** A usage error: exit 2, one line on stderr matching `what`. */
function refused(r: { code: number; stderr: string }, what: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, what);
}

test('a baseline with wrong types is refused before the run, naming the field (exit 2)', async () => {
  const baseline = join(dir, 'baseline');
  await mkdir(baseline);
  await writeFile(join(baseline, 'summary.json'), JSON.stringify({ verdict: 'pass', variants: [{ variant: 'A', rules: [{ id: 'AIS-01', status: 3 }] }] }));
  await assert.rejects(readSummary(baseline), (e: unknown) => e instanceof UsageError && /\$\.variants\[0\]\.rules\[0\]\.status: expected a string/.test(e.message));
  await writeFile(join(baseline, 'summary.json'), JSON.stringify({ variants: [{ variant: 'A', rules: 'all' }] }));
  const started = Date.now();
  const r = await runObtpp(['conform', '--baseline', baseline, '--report-dir', join(dir, 'never')], { cwd: dir, timeoutMs: 60_000 });
  refused(r, /\$\.variants\[0\]\.rules: expected an array/);
  // Refused before anything started: no report folder, no sandbox run.
  assert.equal(existsSync(join(dir, 'never')), false);
  assert.ok(Date.now() - started < 20_000);
});

test('a profile of 40,000 keys is refused by its size at once; 15,000 keys within the limit are reported in a screenful; a duplicated key is still an error', async () => {
  const keys = (n: number) => {
    let text = 'name: many\n';
    for (let i = 0; i < n; i++) text += `k${i}: ${i}\n`;
    return text;
  };
  const many = join(dir, 'many.yaml');
  await writeFile(many, keys(40_000));
  let started = Date.now();
  await assert.rejects(loadProfile(many, { env: {}, cwd: dir }), (e: unknown) => e instanceof ProfileError && /more than the 262144 bytes allowed/.test(e.message));
  assert.ok(Date.now() - started < 2_000, `took ${Date.now() - started} ms`);

  const within = join(dir, 'within.yaml');
  await writeFile(within, keys(15_000));
  started = Date.now();
  await assert.rejects(loadProfile(within, { env: {}, cwd: dir }), (e: unknown) => {
    assert.ok(e instanceof ProfileError);
    // Every stray key is a problem, but the message stays a screenful.
    assert.ok(e.problems.length > 15_000);
    assert.ok(e.message.split('\n').length <= 21, `${e.message.split('\n').length} lines`);
    return true;
  });
  // A bound for a shared, busy machine: the quadratic parse took a minute for 40,000 keys there.
  assert.ok(Date.now() - started < 20_000, `took ${Date.now() - started} ms`);

  const twice = join(dir, 'twice.yaml');
  await writeFile(twice, 'name: a\nbaseUrl: http://127.0.0.1:1\nname: b\n');
  await assert.rejects(loadProfile(twice, { env: {}, cwd: dir }), (e: unknown) => e instanceof ProfileError && /unique.*"name".*line 3/.test(e.message));
});

test('an --attest key that is a FIFO or /dev/zero is refused at once, not read', async () => {
  const fifo = join(dir, 'key.fifo');
  execFileSync('mkfifo', [fifo]);
  for (const [file, kind] of [[fifo, 'a FIFO'], ['/dev/zero', 'a character device']] as const) {
    const started = Date.now();
    await assert.rejects(readKeyInput(file, { env: {}, cwd: dir }), (e: unknown) => e instanceof UsageError && e.message.includes(`is ${kind}, not a regular file`));
    assert.ok(Date.now() - started < 1_000);
  }
  const huge = join(dir, 'huge.pem');
  await writeFile(huge, 'x'.repeat(200 * 1024));
  await assert.rejects(readKeyInput(huge, { env: {}, cwd: dir }), /more than the 65536 bytes allowed/);
  // Through the CLI: one line, exit 2, before any run.
  refused(await runObtpp(['conform', '--attest', fifo, '--report-dir', join(dir, 'never2')], { cwd: dir, timeoutMs: 20_000 }), /--attest: cannot read the key file .*is a FIFO/);
});

test('sandbox --write-profile refuses a symlink at its path and writes nothing through it', async () => {
  const target = join(dir, 'victim.txt');
  await writeFile(target, 'untouched\n');
  const link = join(dir, 'profile.yaml');
  await symlink(target, link);
  const r = await runObtpp(['sandbox', '--write-profile', link], { cwd: dir, timeoutMs: 20_000 });
  refused(r, /is a symbolic link/);
  assert.equal(await readFile(target, 'utf8'), 'untouched\n');
});

test('a cached client-credentials token is reused only at the authorisation server that issued it', async () => {
  const sb: Sandbox = await startSandbox({ quiet: true });
  try {
    const file = join(dir, 'uk.json');
    await writeFile(file, JSON.stringify(sb.profile()), { mode: 0o600 });
    const state = join(dir, 'state.json');
    const session = await Session.open({ profile: file, state, env: { HOME: dir }, cwd: dir, variant: 'A' } as never);
    await session.clientToken('ais');
    const key = profileKey({ profile: session.profile.name, baseUrl: session.profile.baseUrl, clientId: session.profile.auth.clientId, variant: 'A' });
    const doc = await new StateFile(state).read();
    assert.equal(doc.profiles[key]?.clientCredentials.ais?.issuer, session.profile.auth.issuer);
    // The same profile identity, but the token came from another server: not reused.
    const plant = (issuer: string, accessToken: string) => new StateFile(state).update((d) => void Object.assign(d.profiles[key]!.clientCredentials.ais!, { issuer, accessToken }));
    await plant('http://127.0.0.1:1/another-issuer', 'token-of-another-server');
    const fresh = await session.clientToken('ais');
    assert.notEqual(fresh, 'token-of-another-server');
    // The same server's cached token is reused (the test can tell the two apart).
    await plant(session.profile.auth.issuer!, 'token-of-this-server');
    assert.equal(await session.clientToken('ais'), 'token-of-this-server');
  } finally {
    await sb.stop();
  }
});
