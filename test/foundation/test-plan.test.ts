// npm test's plan (scripts/test-plan.mjs): every test file runs exactly once, the files it names
// exist, and a file that shares a process keeps its top-level hooks around its own tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { globSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONCURRENT_TESTS, FIRST_FOLDERS, GROUP_SIZE, LONG, OWN_PROCESS, plan, runFileName, runSource } from '../../scripts/test-plan.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const files = globSync('test/**/*.test.ts', { cwd: root }).sort();

test('the plan runs every test file exactly once: the long ones first and alone, groups of one folder, the own-process ones alone', () => {
  const batches: string[][] = plan(files);
  assert.deepEqual(batches.flat().sort(), files);
  for (const f of [...LONG, ...Object.keys(OWN_PROCESS)]) assert.ok(files.includes(f), `${f} is named by the plan but is no test file`);
  assert.deepEqual(batches.slice(0, LONG.length), LONG.map((f: string) => [f]));
  assert.deepEqual(batches.slice(-Object.keys(OWN_PROCESS).length), Object.keys(OWN_PROCESS).map((f) => [f]));
  for (const members of batches) {
    assert.ok(members.length >= 1 && members.length <= GROUP_SIZE, members.join(' '));
    assert.equal(new Set(members.map((m) => dirname(m))).size, 1, `one folder: ${members.join(' ')}`);
  }
  assert.ok(batches.length < files.length / 2, `${batches.length} processes for ${files.length} files`);
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
