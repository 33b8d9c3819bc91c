/**
 * Issue 25, item 6: two `obtpp conform` runs on one --report-dir. While the first runs, the
 * second is refused in one line with exit 2 (before it starts a bank or a browser), and the
 * first's report is whole: summary.json and every NDJSON line parse, the JUnit has its closing
 * tag, and the lock is gone when it ends. A lock left by a run that crashed (stale) is taken
 * over. Issue 41, item 2: the second run starts once the first has begun writing into the folder
 * (files there, no summary.json yet), and is told the folder is in use by a run, and which process.
 * Build first (npm run build).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, runObtpp } from '../helpers/obtpp.ts';
import { lockReportDir } from '../../src/conformance/report-lock.ts';
import { UsageError } from '../../src/errors.ts';

let dir: string;

before(async () => {
  assert.ok(existsSync(bin), `${bin} is missing: build first (npm run build)`);
  dir = await mkdtemp(join(tmpdir(), 'obtpp-report-dir-'));
});
after(() => rm(dir, { recursive: true, force: true }));

test('a second run on the report folder a run is writing is refused in one line naming that run\'s process (exit 2); the first report is whole', async () => {
  const reportDir = join(dir, 'shared');
  const first = spawn(process.execPath, [bin, 'conform', '--variant', 'A', '--tags', '@AIS-01', '--report-dir', reportDir], {
    cwd: dir, env: { ...process.env, NO_COLOR: '1', CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  first.stdout.on('data', (d) => (out += d));
  first.stderr.on('data', (d) => (out += d));
  const firstExit = new Promise<number | null>((r) => first.on('exit', r));
  // The first run holds the folder's lock from before it starts the bank to after it wrote the
  // report; the second starts once the first has begun writing into the folder.
  try {
    const writing = async () => existsSync(`${reportDir}.lock`) && (await readdir(reportDir).catch(() => [])).length > 0 && !existsSync(join(reportDir, 'summary.json'));
    while (!(await writing())) {
      assert.equal(first.exitCode, null, `the first run ended before it wrote into the folder: ${out}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const second = await runObtpp(['conform', '--variant', 'A', '--tags', '@AIS-01', '--report-dir', reportDir], { cwd: dir, timeoutMs: 60_000 });
    assert.equal(second.code, 2, second.stderr);
    assert.equal(second.stderr.trim().split('\n').length, 1, second.stderr);
    assert.match(second.stderr, new RegExp(`^obtpp: --report-dir \\S+ is in use by another obtpp conform run \\(process ${first.pid}, since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z; lock \\S+\\.lock\\)`));
    assert.doesNotMatch(second.stderr, /not empty/);
    assert.equal(second.stdout, '');

    assert.equal(await firstExit, 0, out);
    const summary = JSON.parse(await readFile(join(reportDir, 'summary.json'), 'utf8'));
    assert.equal(summary.verdict, 'pass');
    for (const line of (await readFile(join(reportDir, 'messages.ndjson'), 'utf8')).trim().split('\n')) JSON.parse(line);
    assert.match(await readFile(join(reportDir, 'junit.xml'), 'utf8'), /<\/testsuite>\s*$/);
  } finally {
    // A failed assertion must not leave the first run behind (its folder goes with the test's).
    if (first.exitCode === null && first.signalCode === null) first.kill('SIGKILL');
  }
  assert.equal(existsSync(`${reportDir}.lock`), false, 'the lock outlived the run');
});

test('a report folder locked by a live run is refused; a lock left by a crashed run is taken over', async () => {
  const live = join(dir, 'live');
  const release = await lockReportDir(live, 'live');
  await assert.rejects(lockReportDir(live, 'live'), (e: unknown) => e instanceof UsageError && e.message.includes(`is in use by another obtpp conform run (process ${process.pid}, since `));
  await release();
  const crashed = join(dir, 'crashed');
  await mkdir(`${crashed}.lock`);
  const old = new Date(Date.now() - 60_000);
  await utimes(`${crashed}.lock`, old, old);
  const taken = await lockReportDir(crashed, 'crashed');
  await taken();
  assert.equal(existsSync(`${crashed}.lock`), false);
});
