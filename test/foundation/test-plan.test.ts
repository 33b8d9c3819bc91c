// npm test's plan (scripts/test-plan.mjs): every test file runs exactly once, the files it names
// exist, a file that shares a process keeps its top-level hooks around its own tests, and the files
// of the background runner (scripts/test.mjs) use nothing a starved process could break.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, globSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BACKGROUND, CONCURRENT_TESTS, FIRST_FOLDERS, GROUP_SIZE, LONG, OWN_PROCESS, backgroundPlan, plan, runFileName, runSource } from '../../scripts/test-plan.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const files = globSync('test/**/*.test.ts', { cwd: root }).sort();

test('the plan runs every test file exactly once: the long ones first and alone, groups of one folder, the own-process ones alone; the background files beside it', () => {
  const batches: string[][] = plan(files);
  const background: string[][] = backgroundPlan(files);
  assert.deepEqual([...batches.flat(), ...background.flat()].sort(), files);
  for (const f of BACKGROUND) assert.ok(files.includes(f), `${f} is named by the plan but is no test file`);
  assert.deepEqual(background.flat(), BACKGROUND);
  for (const members of background) assert.ok(members.length >= 1 && members.length <= GROUP_SIZE, members.join(' '));
  for (const f of [...LONG, ...Object.keys(OWN_PROCESS)]) assert.ok(files.includes(f), `${f} is named by the plan but is no test file`);
  assert.deepEqual(batches.slice(0, LONG.length), LONG.map((f: string) => [f]));
  assert.deepEqual(batches.slice(-Object.keys(OWN_PROCESS).length), Object.keys(OWN_PROCESS).map((f) => [f]));
  for (const members of batches) {
    assert.ok(members.length >= 1 && members.length <= GROUP_SIZE, members.join(' '));
    assert.equal(new Set(members.map((m) => dirname(m))).size, 1, `one folder: ${members.join(' ')}`);
  }
  assert.ok(batches.length < batches.flat().length / 2, `${batches.length} processes for ${batches.flat().length} files`);
  // After the long files, one group of each of FIRST_FOLDERS in its order, before any second group of one.
  for (const folder of FIRST_FOLDERS) assert.ok(files.some((f) => dirname(f) === folder), `${folder} holds test files`);
  assert.deepEqual(batches.slice(LONG.length, LONG.length + FIRST_FOLDERS.length).map((m) => dirname(m[0]!)), FIRST_FOLDERS);
  // The files whose tests run at once (grouped or long): real files, and only theirs get the describe's concurrency.
  for (const f of Object.keys(CONCURRENT_TESTS)) assert.ok(files.includes(f), `${f} is a test file`);
  const long = LONG.find((f: string) => f in CONCURRENT_TESTS);
  if (long) assert.match(runSource([long], root), /\{ concurrency: true \}/, `${long} runs alone, its tests at once`);
  const [concurrent] = Object.keys(CONCURRENT_TESTS);
  const source: string = runSource([concurrent, 'test/independent-bank/uk-ais.test.ts'], root);
  assert.equal(source.match(/\{ concurrency: true \}/g)?.length, 1, source);
  assert.match(source, new RegExp(`describe\\(${JSON.stringify(concurrent).replaceAll('.', '\\.')}, \\{ concurrency: true \\}`));
  // The runner sorts what it is given by name: the names keep the plan's order.
  const names = batches.map((members, i) => runFileName(members, i));
  assert.deepEqual([...names].sort(), names);
});

// What a file of the background runner must not use: its process runs at the lowest priority and
// may wait seconds for a core, so nothing of it may be timed (a time-out, a sleep, a bank's clock),
// and it has no shared browser and no warm workers (test/global-setup.ts starts neither for it).
const STARVED_FILES_MUST_NOT = /\b(launchBrowser|PsuBrowser|runObtpp|conformWarm|runInWorkers|startSandbox|setTimeout|timeoutMs|OBTPP_BROWSER_WS_ENDPOINT|OBTPP_TEST_POOL)\b|helpers\/(obtpp|warm-cli|own-chromium)|sandbox\/tpp/;

test('the background files use no browser, no warm worker, no sandbox and nothing timed', async () => {
  for (const f of BACKGROUND) {
    const found = STARVED_FILES_MUST_NOT.exec(await readFile(join(root, f), 'utf8'));
    assert.equal(found?.[0], undefined, `${f} uses ${found?.[0]}: it belongs in the plan (scripts/test-plan.mjs), not in BACKGROUND`);
  }
  // The check itself finds what it is for.
  assert.match(await readFile(join(root, 'test/foundation/warm-cli.test.ts'), 'utf8'), STARVED_FILES_MUST_NOT);
});

test('scripts/test.mjs runs the background files beside the plan at the lowest priority: its report after the plan\'s, appended to each reporter\'s file, and one line of both runs\' counts', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-test-runners-'));
  try {
    // A reporter that writes the priority its runner runs at (reporters run in the runner's process).
    const reporter = join(dir, 'priority.mjs');
    await writeFile(reporter, [
      `import { getPriority } from 'node:os';`,
      `import { existsSync, readFileSync } from 'node:fs';`,
      // Linux's autogroup of the runner's session: its own nice decides against other sessions' processes.
      `const group = () => existsSync('/proc/self/autogroup') ? readFileSync('/proc/self/autogroup', 'utf8').trim() : 'none';`,
      `export default async function* (source) { let n = 0; for await (const e of source) if (e.type === 'test:pass' && e.data.details?.type !== 'suite') n++; yield 'priority ' + getPriority() + ', ' + n + ' passed, ' + group() + '\\n'; }`,
    ].join('\n'));
    const out = join(dir, 'priorities.txt');
    const main = 'test/security/bg-error-codes.test.ts';
    const beside = 'test/foundation/kept.test.ts';
    assert.ok(!BACKGROUND.includes(main) && BACKGROUND.includes(beside));
    // The runners use this test run's browser and workers, if any (their endpoints are in the environment).
    const { NODE_TEST_CONTEXT: _ours, ...env } = process.env;
    const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'scripts', 'test.mjs'),
      '--test-reporter=spec', '--test-reporter-destination=stdout', `--test-reporter=${reporter}`, `--test-reporter-destination=${out}`, main, beside,
    ], { cwd: root, env: { ...env, NO_COLOR: '1' } });
    const at = (text: string) => stdout.indexOf(text);
    assert.ok(at(`▶ ${main}`) >= 0 && at(`▶ ${beside}`) > at(`▶ ${main}`), stdout);
    const counts = [...stdout.matchAll(/^ℹ tests (\d+)$/gm)].map((m) => Number(m[1]));
    assert.equal(counts.length, 2, stdout);
    assert.match(stdout, new RegExp(`^ℹ in all: ${counts[0]! + counts[1]!} tests, ${counts[0]! + counts[1]!} passed, 0 failed, 0 cancelled, 0 skipped, 0 todo \\(${counts[0]} in the runner of the plan, ${counts[1]} beside it at the lowest priority\\)$`, 'm'));
    const ours = os.getPriority();
    const lines = (await readFile(out, 'utf8')).trim().split('\n');
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(lines[0]!, new RegExp(`^priority ${ours}, ${counts[0]} passed, `));
    assert.match(lines[1]!, new RegExp(`^priority 19, ${counts[1]} passed, `));
    // Where the kernel has autogroups, the background runner's session is a group of its own, at nice 19.
    const group = (line: string) => line.split(', ')[2]!;
    if (existsSync('/proc/self/autogroup')) {
      assert.notEqual(group(lines[1]!), group(lines[0]!));
      assert.match(group(lines[1]!), / nice 19$/);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a group runs each member\'s top-level hooks around that member\'s own tests, and reports each member as a suite of its path', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-test-plan-'));
  try {
    const log = join(dir, 'log');
    for (const name of ['a', 'b']) {
      await writeFile(join(dir, `${name}.test.ts`), [
        `import { test, before, after } from 'node:test';`,
        `import { appendFileSync } from 'node:fs';`,
        `const note = (what: string) => appendFileSync(${JSON.stringify(log)}, '${name} ' + what + '\\n');`,
        `before(() => note('before'));`,
        `after(() => note('after'));`,
        `test('${name} first', () => note('first'));`,
        `test('${name} second', () => note('second'));`,
      ].join('\n'));
    }
    const group = join(dir, runFileName(['a.test.ts', 'b.test.ts'], 0));
    await writeFile(group, runSource(['a.test.ts', 'b.test.ts'], dir));
    // A runner of its own (without the context this file's runner gave it, it would not run files).
    const { NODE_TEST_CONTEXT: _ours, ...env } = process.env;
    const out = execFileSync(process.execPath, ['--test', '--test-reporter=spec', group], { cwd: dir, encoding: 'utf8', env: { ...env, NO_COLOR: '1' } });
    assert.deepEqual((await readFile(log, 'utf8')).trim().split('\n'), [
      'a before', 'a first', 'a second', 'a after',
      'b before', 'b first', 'b second', 'b after',
    ]);
    assert.match(out, /▶ a\.test\.ts\n {2}✔ a first/);
    assert.match(out, /ℹ tests 4\n/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
