/**
 * The test suite's cost: `npm test`'s test command (the part after its build: `node scripts/test.mjs`, read
 * from package.json), run once with CI=true, its wall time and its CPU. The CPU is every process
 * the run started, measured by a cgroup of its own where this machine lets one be made (Linux,
 * cgroup v1 `cpuacct`, as root): Chromium's renderers, which Chromium does not reap, count too.
 * Elsewhere it is what bash's `times` reports for the processes it waited for (those renderers
 * left out). Prints one JSON line; `cpuBy` says which; `reapedCpuMs` is always the `times` figure
 * (what `/usr/bin/time npm test` reports), for comparison.
 *   node bench/suite.ts            (build first: npm run build)
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface SuiteRow {
  name: string; wallMs: number; cpuMs: number; cpuBy: 'cgroup' | 'times'; reapedCpuMs: number; tests: number; failed: number; exit: number;
  /** Where its time went, per file (scripts/test-times.mjs: a Markdown table, costliest first). */
  byFile: string;
}

const CPUACCT = '/sys/fs/cgroup/cpuacct';

/** A cpuacct cgroup of our own, or undefined where none can be made. */
function cgroup(): string | undefined {
  const dir = `${CPUACCT}/obtpp-bench-${process.pid}`;
  try {
    mkdirSync(dir);
    return dir;
  } catch {
    return undefined;
  }
}

/** Ends the cgroup: what is left in it goes back to the root group, then it goes. */
function dropCgroup(dir: string): void {
  try {
    for (const pid of readFileSync(`${dir}/cgroup.procs`, 'utf8').split('\n').filter(Boolean)) writeFileSync(`${CPUACCT}/cgroup.procs`, pid);
    rmdirSync(dir);
  } catch {
    // a process still exiting: the group stays empty behind
  }
}

/** The test command as npm test runs it (`node scripts/test.mjs`), from package.json (the Node check and the build left out). */
export function testCommand(): string {
  const script: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.test;
  const at = script.indexOf('node scripts/test.mjs');
  if (at < 0) throw new Error('package.json\'s test script has no `node scripts/test.mjs` command');
  return script.slice(at);
}

const seconds = (text: string) => {
  const m = /^(\d+)m([\d.]+)s$/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
};

export async function benchSuite(): Promise<SuiteRow> {
  const group = cgroup();
  const timesFile = join(tmpdir(), `obtpp-suite-times-${process.pid}.md`);
  const reporters = `--test-reporter=spec --test-reporter-destination=stdout --test-reporter=./scripts/test-times.mjs --test-reporter-destination=${timesFile}`;
  const command = `${group ? `echo $$ > ${group}/cgroup.procs; ` : ''}${testCommand()} ${reporters}; rc=$?; times; exit $rc`;
  const t0 = performance.now();
  const child = spawn('bash', ['-c', command], { cwd: root, env: { ...process.env, CI: 'true', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => (out = (out + d).slice(-20_000)));
  const exit = await new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
  const wallMs = performance.now() - t0;
  // `times`: the shell's own user and system time, then its children's.
  const lines = out.trimEnd().split('\n');
  const [user, system] = (lines.at(-1) ?? '').trim().split(/\s+/).map(seconds);
  const count = (label: string) => Number(new RegExp(`^\\S*\\s*${label} (\\d+)$`, 'm').exec(out)?.[1] ?? NaN);
  const reapedCpuMs = ((user ?? NaN) + (system ?? NaN)) * 1000;
  let cpuMs = reapedCpuMs;
  if (group) {
    // Processes that outlive the run (a renderer exiting) are given a moment to be counted.
    await new Promise((r) => setTimeout(r, 1_000));
    cpuMs = Number(readFileSync(`${group}/cpuacct.usage`, 'utf8')) / 1e6;
    dropCgroup(group);
  }
  let byFile = '';
  try {
    byFile = readFileSync(timesFile, 'utf8');
    rmSync(timesFile, { force: true });
  } catch {
    // the reporter wrote nothing (the run ended before it could)
  }
  return { name: 'npm test (its test command, after the build)', wallMs, cpuMs, cpuBy: group ? 'cgroup' : 'times', reapedCpuMs, tests: count('tests'), failed: count('fail'), exit, byFile };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(JSON.stringify(await benchSuite()));
