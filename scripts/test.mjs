// `npm test`'s test command: every test/**/*.test.ts through Node's test runner, two processes at a
// time, with the run's global set-up (test/global-setup.ts: one Chromium, one pool of warm obtpp
// workers) — and most test files sharing a process with the others of their folder.
//
// Why: a test file in a process of its own pays Node's start, its modules' loading and a cold JIT
// again, about half a second of CPU each, and most files' own work is less than that. So the files
// of a folder run in groups (GROUP_SIZE at most), one process per group: a generated file
// (in a temporary folder) that imports each member inside a `describe` named by the
// member's path. The member's top-level hooks (before, after) then belong to that describe, so they
// run around the member's own tests, as they did in a process of its own; the report shows each
// member as a suite of its path. A file still runs alone as usual:
// `node --test --test-global-setup=test/global-setup.ts FILE`.
//
// Which files share a process, and in what order they start: scripts/test-plan.mjs. The runs'
// shared parts (one Chromium, one pool of warm workers, the compile cache: test/global-setup.ts) are
// set up here, once, for both runners: the main one, two processes at a time, and the background
// lane's (BACKGROUND_FOLDERS in scripts/test-plan.mjs), one process at a time at the lowest
// priority, whose output follows the main one's; a total of both ends the run.
//
//   node scripts/test.mjs [node --test options…] [FILE…]     (build first: npm run build)
// Options go to `node --test` (a reporter, --test-name-pattern…); FILEs, when given, replace the
// whole suite (and still group). With a reporter of your own (--test-reporter) every file runs in
// the main runner, as your reporter expects one run; so does OBTPP_TEST_BACKGROUND=0.
import { spawn } from 'node:child_process';
import { globSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { lanes, plan, runFileName, runSource } from './test-plan.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const args = process.argv.slice(2);
const options = args.filter((a) => a.startsWith('-'));
const named = args.filter((a) => !a.startsWith('-'));
const files = [...new Set((named.length ? named.flatMap((p) => globSync(p, { cwd: root })) : globSync('test/**/*.test.ts', { cwd: root }))
  .map((f) => relative(root, resolve(root, f))))]
  .sort();
if (files.length === 0) {
  process.stderr.write(`scripts/test.mjs: no test file matches ${named.map((n) => JSON.stringify(n)).join(' ')}; give test files or patterns such as "test/cli/*.test.ts"\n`);
  process.exit(2);
}

// The processes' files, gone when the run ends.
const groupDir = mkdtempSync(join(tmpdir(), 'obtpp-test-groups-'));
const batches = plan(files);
const ownReporter = options.some((o) => o.startsWith('--test-reporter'));
const oneLane = ownReporter || process.env.OBTPP_TEST_BACKGROUND === '0';
const split = oneLane ? { main: batches, background: [], starter: undefined } : lanes(batches);
const go = join(groupDir, 'main-lanes-reached-their-groups');
const runFile = (members) => {
  const file = join(groupDir, runFileName(members, batches.indexOf(members)));
  writeFileSync(file, runSource(members, root, members === split.starter ? { start: go } : split.background.includes(members) ? { after: go } : {}));
  return file;
};
const mainRuns = split.main.map(runFile);
const backgroundRuns = split.background.map(runFile);

const { globalSetup, globalTeardown } = await import(pathToFileURL(join(root, 'test', 'global-setup.ts')).href);
await globalSetup({ ownSignals: false });

const counted = (name) => ownReporter ? [] : ['--test-reporter=spec', '--test-reporter-destination=stdout', `--test-reporter=${join(root, 'scripts', 'test-count.mjs')}`, `--test-reporter-destination=${join(groupDir, `${name}.count.json`)}`];
const runner = (concurrency, name, runs, spawnOptions) => spawn(process.execPath, [
  '--test', `--test-concurrency=${concurrency}`, '--test-timeout=600000', ...counted(name), ...options, ...runs,
], { cwd: root, ...spawnOptions });
// 'close': the process ended and its output has all been read.
const ended = (child) => new Promise((done) => child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0))));

const main = runner(2, 'main', mainRuns, { stdio: 'inherit' });
const mainEnded = ended(main);
// The background lane: a session of its own (so a scheduling group of its own where Linux's
// autogroups are on), at nice 19 there and for the process; its output kept until the main one's ends.
const background = backgroundRuns.length ? runner(1, 'background', backgroundRuns, { stdio: ['ignore', 'pipe', 'pipe'], detached: true }) : undefined;
const backgroundOut = [];
let backgroundEnded = Promise.resolve(0);
if (background) {
  try {
    writeFileSync(`/proc/${background.pid}/autogroup`, '19');
  } catch {
    /* no autogroups here: the process's own nice value serves */
  }
  try {
    setPriority(background.pid, 19);
  } catch {
    /* not allowed here: the lane runs at the main lanes' priority */
  }
  backgroundEnded = ended(background);
  background.stdout.on('data', (chunk) => backgroundOut.push(chunk));
  background.stderr.on('data', (chunk) => backgroundOut.push(chunk));
}
// Ctrl-C reaches the main runner (the terminal signals the whole process group) and, forwarded, the
// background lane's session: wait for both to end, then tear down.
const signal = (sig) => {
  if (sig === 'SIGTERM') main.kill('SIGTERM');
  if (background?.exitCode === null) {
    try {
      process.kill(-background.pid, sig);
    } catch {
      /* already gone */
    }
  }
};
process.on('SIGINT', () => signal('SIGINT'));
process.on('SIGTERM', () => signal('SIGTERM'));

const mainCode = await mainEnded;
// A main runner that ended before its groups (an error, an interrupt) must not leave the lane waiting.
writeFileSync(go, '');
const backgroundCode = await backgroundEnded;
if (background) {
  process.stdout.write(`\n── the background lane (${split.background.flat().length} files of ${[...new Set(split.background.flat().map((f) => dirname(f)))].join(', ')}, scripts/test-plan.mjs) ──\n`);
  process.stdout.write(Buffer.concat(backgroundOut));
}
if (!ownReporter) {
  const read = (name) => {
    try {
      return JSON.parse(readFileSync(join(groupDir, `${name}.count.json`), 'utf8'));
    } catch {
      return undefined;
    }
  };
  const counts = [read('main'), ...(background ? [read('background')] : [])];
  if (counts.every(Boolean)) {
    const total = Object.fromEntries(Object.keys(counts[0]).map((k) => [k, counts.reduce((t, c) => t + c[k], 0)]));
    const parts = background ? ` (${counts[0].tests} in the main lanes, ${counts[1].tests} in the background lane)` : '';
    process.stdout.write(`\nnpm test: ${total.tests} tests, ${total.pass} passed, ${total.fail} failed${total.skipped ? `, ${total.skipped} skipped` : ''}${total.todo ? `, ${total.todo} todo` : ''}${parts}\n`);
  }
}
await globalTeardown();
rmSync(groupDir, { recursive: true, force: true });
process.exitCode = mainCode || backgroundCode;
