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
// Beside that runner, a second one runs the files that only compute (BACKGROUND in
// scripts/test-plan.mjs: no browser, no warm worker, no time-out of their own), one process at a
// time at the lowest priority: they take the cores when the first runner's processes leave them
// idle, waiting on banks, browsers and each other. Its report follows the first one's (each
// reporter's file destination gets it appended), and a last line sums both runs' counts.
//
// Which files share a process, and in what order they start: scripts/test-plan.mjs.
//
//   node scripts/test.mjs [node --test options…] [FILE…]     (build first: npm run build)
// Options go to `node --test` (a reporter, --test-name-pattern…; as --name=value); FILEs, when
// given, replace the whole suite (and still group).
import { spawn } from 'node:child_process';
import { appendFileSync, globSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { backgroundPlan, plan, runFileName, runSource } from './test-plan.mjs';

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

const write = (batches, prefix) => batches.map((members, i) => {
  const file = join(groupDir, `${prefix}${runFileName(members, i)}`);
  writeFileSync(file, runSource(members, root));
  return file;
});
const runs = write(plan(files), '');
const backgroundRuns = write(backgroundPlan(files), 'background-');

// The reporters as given (node's default, spec on stdout, when none is), each with its destination,
// and the counts reporter's to a file of each runner's own.
const given = (flag) => options.filter((o) => o.startsWith(`${flag}=`)).map((o) => o.slice(flag.length + 1));
const others = options.filter((o) => !o.startsWith('--test-reporter=') && !o.startsWith('--test-reporter-destination='));
const reporters = given('--test-reporter').length ? given('--test-reporter') : ['spec'];
const destinations = given('--test-reporter-destination').length ? given('--test-reporter-destination') : ['stdout'];
const reporting = (dests, counts) => [
  ...reporters.flatMap((r, i) => [`--test-reporter=${r}`, `--test-reporter-destination=${dests[i] ?? 'stdout'}`]),
  `--test-reporter=./scripts/test-counts.mjs`, `--test-reporter-destination=${counts}`,
];
const runner = (files, concurrency, report, options) => spawn(process.execPath, [
  '--test', `--test-concurrency=${concurrency}`, '--test-timeout=600000', '--test-global-setup=test/global-setup.ts',
  ...others, ...report, ...files,
], { cwd: root, ...options });

/**
 * The lowest priority for a process started in a session of its own, and for every process it
 * starts (they inherit it). Linux's autogroups share the CPU fairly between sessions first, and
 * a process's nice counts only within its session's group: Chromium and the warm workers run in
 * sessions of their own, so a niced process in ours took as much CPU as they did. The group's
 * own nice (/proc/PID/autogroup) puts the whole session below them. Where either is refused or
 * absent, the runner runs at the usual priority: only less of the idle time is taken.
 */
function lowest(pid) {
  try {
    setPriority(pid, 19);
  } catch {
    // not permitted here
  }
  try {
    writeFileSync(`/proc/${pid}/autogroup`, '19');
  } catch {
    // no autogroups (not Linux, or the kernel's are off)
  }
}
const exited = (child) => new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));

const children = [];
const results = [];
let background;
let first = Promise.resolve();
if (runs.length) {
  const counts = join(groupDir, 'counts.json');
  const child = runner(runs, 2, reporting(destinations, counts), { stdio: 'inherit' });
  children.push(child);
  results.push((first = exited(child).then((code) => ({ code, counts }))));
}
if (backgroundRuns.length) {
  // Its report waits for the first runner's: what it writes to stdout and stderr is kept until then,
  // and each reporter's file gets a file of its own here, appended to the reporter's after.
  const files = destinations.map((d, i) => (d === 'stdout' || d === 'stderr' ? d : join(groupDir, `background-report-${i}`)));
  const counts = join(groupDir, 'background-counts.json');
  // No browser, no warm workers: its files use neither (test/global-setup.ts). A session of its own
  // (detached), at the lowest priority before it starts any process.
  const child = runner(backgroundRuns, 1, reporting(files, counts), { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, OBTPP_TEST_BACKGROUND: '1' }, detached: true });
  lowest(child.pid);
  background = child;
  const out = [];
  const err = [];
  child.stdout.on('data', (d) => out.push(d));
  child.stderr.on('data', (d) => err.push(d));
  children.push(child);
  results.push(exited(child).then(async (code) => {
    await first; // the first runner's report first
    process.stdout.write(Buffer.concat(out));
    process.stderr.write(Buffer.concat(err));
    files.forEach((f, i) => {
      if (f !== destinations[i]) appendFileSync(destinations[i], readFileSync(f));
    });
    return { code, counts };
  }));
}

// Ctrl-C reaches the plan's runner too (the terminal signals the whole process group), not the
// background one in its own session: it is passed on. Then both are waited for.
process.on('SIGINT', () => background?.kill('SIGINT'));
process.on('SIGTERM', () => children.forEach((c) => c.kill('SIGTERM')));
const ended = await Promise.all(results);
const sum = { tests: 0, passed: 0, failed: 0, cancelled: 0, skipped: 0, todo: 0 };
const each = ended.map(({ counts }) => {
  try {
    const c = JSON.parse(readFileSync(counts, 'utf8'));
    for (const k of Object.keys(sum)) sum[k] += c[k] ?? 0;
    return c.tests;
  } catch {
    return undefined; // the runner ended before its reporter wrote (interrupted)
  }
});
if (ended.length > 1 && !each.includes(undefined)) {
  process.stdout.write(`ℹ in all: ${sum.tests} tests, ${sum.passed} passed, ${sum.failed} failed, ${sum.cancelled} cancelled, ${sum.skipped} skipped, ${sum.todo} todo ` +
    `(${each[0]} in the runner of the plan, ${each[1]} beside it at the lowest priority)\n`);
}
rmSync(groupDir, { recursive: true, force: true });
process.exitCode = ended.find((e) => e.code !== 0)?.code ?? 0;
