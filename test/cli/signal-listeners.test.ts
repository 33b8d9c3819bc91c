// A command that ends leaves no SIGINT/SIGTERM listener behind in a process that lives on (a
// library caller, the test suite's warm workers): eleven `obtpp conform` in one process once made
// Node print a MaxListenersExceededWarning into the twelfth command's stderr.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/program.ts';
import { waitForProcessSignal, type Io } from '../../src/cli/io.ts';

const listeners = () => process.listenerCount('SIGINT') + process.listenerCount('SIGTERM');

test('waitForProcessSignal: its listeners go when the wait is called off, and it resolves on a signal while it waits', async () => {
  const before = listeners();
  const until = new AbortController();
  void waitForProcessSignal(until.signal);
  assert.equal(listeners(), before + 2);
  until.abort();
  assert.equal(listeners(), before);

  const waiting = waitForProcessSignal();
  process.emit('SIGTERM', 'SIGTERM');
  assert.equal(await waiting, 'SIGTERM');
  assert.equal(listeners(), before);
});

test('obtpp conform, run twelve times in one process, ends each time with the listeners it found', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-signals-'));
  try {
    const profile = join(dir, 'bad.json');
    await writeFile(profile, '{ "not": "a profile" }', { mode: 0o600 });
    const before = listeners();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    for (let i = 0; i < 12; i++) {
      const stderr = new PassThrough();
      const err: string[] = [];
      stderr.on('data', (d: Buffer) => err.push(d.toString()));
      const io: Io = { stdout: new PassThrough(), stderr, env: {}, cwd: dir, color: false, interactive: false, exitCode: 0, waitForSignal: waitForProcessSignal };
      const code = await runCli(['conform', '--profile', profile, '--report-dir', join(dir, `r${i}`)], io);
      assert.equal(code, 2, err.join(''));
      assert.equal(listeners(), before, `after run ${i + 1}`);
    }
    await new Promise((r) => setImmediate(r));
    process.off('warning', onWarning);
    assert.deepEqual(warnings.filter((n) => n === 'MaxListenersExceededWarning'), []);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
