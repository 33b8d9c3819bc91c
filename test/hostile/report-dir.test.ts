/**
 * Issue 25, item 6: two `obtpp conform` runs on one --report-dir. While the first runs, the
 * second is refused in one line with exit 2 (before it starts a bank or a browser), and the
 * first's report is whole: summary.json and every NDJSON line parse, the JUnit has its closing
 * tag, and the lock is gone when it ends. A lock left by a run that crashed (stale) is taken
 * over. Build first (npm run build).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, utimes } from 'node:fs/promises';
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

test('a second run on the report folder of a run in progress is refused in one line (exit 2); the first report is whole', async () => {
  const reportDir = join(dir, 'shared');
  const first = spawn(process.execPath, [bin, 'conform', '--variant', 'A', '--tags', '@AIS-01', '--report-dir', reportDir], {
    cwd: dir, env: { ...process.env, NO_COLOR: '1', CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  first.stdout.on('data', (d) => (out += d));
  first.stderr.on('data', (d) => (out += d));
  const firstExit = new Promise<number | null>((r) => first.on('exit', r));
  // The first run holds the folder's lock from before it starts the bank to after it wrote the report.
  while (!existsSync(`${reportDir}.lock`)) {
    assert.equal(first.exitCode, null, `the first run ended before it locked the folder: ${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const second = await runObtpp(['conform', '--variant', 'A', '--tags', '@AIS-01', '--report-dir', reportDir], { cwd: dir, timeoutMs: 60_000 });
  assert.equal(second.code, 2, second.stderr);
  assert.equal(second.stderr.trim().split('\n').length, 1, second.stderr);
  assert.match(second.stderr, /is being written by another obtpp conform run/);
  assert.equal(second.stdout, '');

  assert.equal(await firstExit, 0, out);
  const summary = JSON.parse(await readFile(join(reportDir, 'summary.json'), 'utf8'));
  assert.equal(summary.verdict, 'pass');
  for (const line of (await readFile(join(reportDir, 'messages.ndjson'), 'utf8')).trim().split('\n')) JSON.parse(line);
  assert.match(await readFile(join(reportDir, 'junit.xml'), 'utf8'), /<\/testsuite>\s*$/);
  assert.equal(existsSync(`${reportDir}.lock`), false, 'the lock outlived the run');
});

test('a report folder locked by a live run is refused; a lock left by a crashed run is taken over', async () => {
  const live = join(dir, 'live');
  const release = await lockReportDir(live, 'live');
  await assert.rejects(lockReportDir(live, 'live'), (e: unknown) => e instanceof UsageError && /being written by another/.test(e.message));
  await release();
  const crashed = join(dir, 'crashed');
  await mkdir(`${crashed}.lock`);
  const old = new Date(Date.now() - 60_000);
  await utimes(`${crashed}.lock`, old, old);
  const taken = await lockReportDir(crashed, 'crashed');
  await taken();
  assert.equal(existsSync(`${crashed}.lock`), false);
});
