// The tests' warm CLI workers (test/helpers/warm-cli.ts) run each `obtpp …` as its own process
// would: its environment only (nothing left from the command before), its folder, its exit code,
// stdout and stderr apart, and a time-out that kills. Checked against the real binary's answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runObtpp } from '../helpers/obtpp.ts';

test('a warm command sees only its own environment and folder, and answers as the real binary does', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-warm-'));
  try {
    await writeFile(join(dir, 'here.yaml'), 'not: [a profile\n');
    // A profile named by OBTPP_PROFILE, relative to the command's folder: the parse error names it.
    const cases: Array<{ args: string[]; env?: Record<string, string> }> = [
      { args: ['accounts'], env: { OBTPP_PROFILE: 'here.yaml' } },
      // The same command without the variable: the first command's environment must be gone.
      { args: ['accounts'] },
      { args: ['--version'] },
      { args: ['consent', 'creat'] },
    ];
    for (const c of cases) {
      const env = { OBTPP_PROFILE: undefined, ...c.env };
      const [warm, real] = await Promise.all([
        runObtpp(c.args, { cwd: dir, env, timeoutMs: 60_000 }),
        runObtpp(c.args, { cwd: dir, env, timeoutMs: 60_000, process: true }),
      ]);
      assert.deepEqual({ code: warm.code, stdout: warm.stdout, stderr: warm.stderr }, { code: real.code, stdout: real.stdout, stderr: real.stderr }, `obtpp ${c.args.join(' ')}`);
    }
    const first = await runObtpp(['accounts'], { cwd: dir, env: { OBTPP_PROFILE: 'here.yaml' } });
    assert.match(first.stderr, /here\.yaml/);
    const second = await runObtpp(['accounts'], { cwd: dir, env: { OBTPP_PROFILE: undefined } });
    assert.doesNotMatch(second.stderr, /here\.yaml/, 'no variable of an earlier command reaches the next');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a warm command past its time-out is killed, and the next command gets a fresh worker', async () => {
  // `obtpp sandbox` serves until a signal: the time-out ends it.
  const slow = await runObtpp(['sandbox', '--port', '0'], { timeoutMs: 3_000 });
  assert.equal(slow.code, -1);
  assert.equal(slow.signal, 'SIGTERM');
  const next = await runObtpp(['--version']);
  assert.equal(next.code, 0, next.stderr);
  assert.match(next.stdout, /^\d+\.\d+\.\d+/);
});

test('under npm test, every test process sends its commands to the one pool of the test run: a warm worker serves another process', async (t) => {
  if (!process.env.OBTPP_TEST_POOL) return t.skip('no shared pool (run without --test-global-setup=test/global-setup.ts)');
  const { runWarm } = await import('../helpers/warm-cli.ts');
  const { root } = await import('../helpers/obtpp.ts');
  const mine = await runWarm(['--version'], { env: { ...process.env }, cwd: root, timeoutMs: 60_000 });
  assert.equal(mine.code, 0, mine.stderr);
  assert.ok(mine.worker, 'the pool names the worker that served');
  assert.equal(typeof mine.servedBefore, 'number', 'the pool says how warm the worker was');
  // Another process (as another test file is) asks the same pool: an idle warm worker answers (one
  // that had served before), not a new one. The other files of the run use the pool meanwhile, so
  // which worker is idle, and whether any is, changes: the process asks three times, and at least
  // one answer must come from a worker that had served before.
  const { execFileSync } = await import('node:child_process');
  const script = `const { runWarm } = await import(${JSON.stringify(new URL('../helpers/warm-cli.ts', import.meta.url).href)}); const rs = []; for (let i = 0; i < 3; i++) rs.push(await runWarm(['--version'], { env: { ...process.env }, cwd: ${JSON.stringify(root)}, timeoutMs: 60000 })); process.stdout.write(JSON.stringify(rs));`;
  const others: Array<typeof mine> = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: process.env }));
  for (const other of others) {
    assert.equal(other.code, 0, other.stderr);
    assert.equal(other.stdout, mine.stdout);
  }
  assert.ok(others.some((o) => (o.servedBefore ?? 0) > 0), `a warm worker of the pool served the other process (${others.map((o) => `${o.worker}: ${o.servedBefore} served before`).join('; ')})`);
});

test('a worker the pool lets go closes its browser first: the Chromium it launched for a bank on a private CA leaves no profile folder behind', async () => {
  const { WorkerPool, defined } = await import('../helpers/warm-cli.ts');
  const { root } = await import('../helpers/obtpp.ts');
  // The worker's temporary folders go here (os.tmpdir() reads TMPDIR), the browser's profile among them.
  const tmp = await mkdtemp(join(tmpdir(), 'obtpp-warm-tmp-'));
  const pool = new WorkerPool({ ...process.env, TMPDIR: tmp });
  try {
    // A sandbox in a FAPI set-up serves TLS from a private CA: the PSU's journey needs a browser
    // launched to trust it (a shared one is never told to), which the worker keeps for its next runs.
    const env = defined({ ...process.env, TMPDIR: tmp, NO_COLOR: '1', CI: 'true' });
    const job = { options: { sandboxSecurity: 'fapi1-advanced', variant: 'A' as const, parallel: 1, tags: '@AIS-03 and not @waits', reports: [] }, reportDir: join(tmp, 'r') };
    const ran = await pool.dispatch({ kind: 'run', job, env, cwd: root }, { timeoutMs: 120_000 });
    assert.equal(ran.result?.exitCode, 0, JSON.stringify(ran.result?.error ?? ran.stderr));
    assert.ok((await readdir(tmp)).some((f) => f.startsWith('obtpp-chromium-')), 'the run launched a browser of its own (its profile folder is there)');
    await pool.close();
    assert.deepEqual((await readdir(tmp)).filter((f) => f.startsWith('obtpp-chromium-')), [], 'the profile folder is gone with the worker');
  } finally {
    await pool.close();
    await rm(tmp, { recursive: true, force: true });
  }
});

test("a worker writes Node's compile cache after its first task, while it lives on: a process started later in the test run reads what it compiled", async () => {
  const { WorkerPool, defined } = await import('../helpers/warm-cli.ts');
  const { root } = await import('../helpers/obtpp.ts');
  const cache = await mkdtemp(join(tmpdir(), 'obtpp-warm-cache-'));
  const pool = new WorkerPool({ ...process.env, NODE_COMPILE_CACHE: cache });
  const entries = async () => (await readdir(cache, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;
  try {
    const ran = await pool.dispatch({ kind: 'cli', args: ['rules', '--json'], env: defined({ ...process.env, NODE_COMPILE_CACHE: cache }), cwd: root }, { timeoutMs: 60_000 });
    assert.equal(ran.code, 0, ran.stderr);
    // Node itself writes the cache only as a process ends; the worker has not ended.
    assert.ok(await entries() > 0, 'the cache holds the modules the worker compiled for its first task');
  } finally {
    await pool.close();
    await rm(cache, { recursive: true, force: true });
  }
});
