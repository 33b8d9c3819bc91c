// Sandbox conformance runs for test/conformance/conform.test.ts (each rule fault) and
// test/conformance/chaos.test.ts (each chaos fault), several per process: each run is its own
// `runConformance` (the library the CLI calls) with its own sandbox bank and only its fault on, so
// each fault's effect is proven on its own. What the runs share is the Node process (modules loaded
// once) and one PSU browser (`openBrowser()`: Chromium starts once; every journey still gets a
// wiped context).
//
// `runInWorkers(jobs, workers)` forks `workers` processes of this file and hands each the next job
// when it is free (`checkFaults` judges the rule faults' runs); run directly
// (`node test/conformance/fault-runs.ts`, forked with IPC) this file is such a worker.
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RunConformanceOptions } from '../../src/index.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const self = fileURLToPath(import.meta.url);

/** One fault and the run that must catch it: data (JSON), so that it can go to a worker. */
export interface FaultRow {
  /** Printed before the fault's name, e.g. `berlin-group ` (empty for the UK sandbox). */
  label: string;
  name: string;
  rule: string;
  /** A fault that breaks only a SHOULD is caught as a warning of its rule. */
  level?: 'SHOULD';
  /** The run's options (the report dir, browser and env are added). */
  options: Omit<RunConformanceOptions, 'reportDir' | 'browser' | 'env' | 'signal' | 'onEvent'>;
}

/** What one fault's run showed. */
export interface FaultOutcome {
  row: FaultRow;
  caught: boolean;
  /** Why the fault does not count as detected (empty when it does). */
  problems: string[];
  /** The `# fault …` line for the test's output. */
  line: string;
}

/** A run that takes longer than this is a hang: its worker is killed, and the run fails. */
const RUN_BOUND_MS = 300_000;

/** One conformance run for a worker: its options (data, JSON) and the report dir it writes. */
export interface RunJob {
  options: FaultRow['options'];
  reportDir: string;
}

/** What a worker's run gave: its exit code and summary, or why there is none. */
export type RunResult = { exitCode: number; summary: any; error?: undefined } | { error: string; exitCode?: undefined; summary?: undefined };

/**
 * Runs every job in `workers` forked processes (a free worker takes the next job) and returns the
 * results in the jobs' order; `onResult` hears of each as it comes. A worker that dies, or whose
 * run hangs past the bound, fails the job it was running; a new worker takes the jobs left.
 */
export async function runInWorkers(jobs: RunJob[], workers: number, onResult: (job: RunJob, result: RunResult) => void = () => undefined): Promise<RunResult[]> {
  const results = new Map<RunJob, RunResult>();
  const record = (job: RunJob, result: RunResult) => {
    results.set(job, result);
    onResult(job, result);
  };
  let next = 0;
  const worker = (): Promise<void> => new Promise<void>((resolve) => {
    const child = fork(self, [], { cwd: root, env: { ...process.env, NO_COLOR: '1', CI: 'true' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
    let current: RunJob | undefined;
    let timer: NodeJS.Timeout | undefined;
    const give = () => {
      current = jobs[next++];
      if (current) {
        child.send({ job: current });
        timer = setTimeout(() => child.kill('SIGKILL'), RUN_BOUND_MS);
      } else child.send({ done: true });
    };
    child.on('message', (m: { ready?: true; result?: RunResult }) => {
      clearTimeout(timer);
      if (m.result && current) record(current, m.result);
      give();
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const lost = current && !results.has(current) ? current : undefined;
      if (lost) record(lost, { error: `the worker exited (${signal ?? code}) during the run (bound ${RUN_BOUND_MS} ms)` });
      // A worker lost mid-run is replaced while jobs are left.
      resolve(lost && next < jobs.length ? worker() : undefined);
    });
  });
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, jobs.length)) }, worker));
  return jobs.map((j) => results.get(j) ?? { error: 'never run' });
}

/**
 * Runs every fault's row in `workers` worker processes and returns the outcomes in the rows'
 * order, each judged: exit 1 with the fault's rule failed (or, for a SHOULD, warned), and no other
 * rule judged.
 */
export async function checkFaults(rows: FaultRow[], workers: number, onOutcome: (o: FaultOutcome) => void = () => undefined): Promise<FaultOutcome[]> {
  const jobs = await Promise.all(rows.map(async (row) => ({ options: row.options, reportDir: await mkdtemp(join(tmpdir(), `obtpp-fault-${row.name}-`)) })));
  const outcomes = new Map<RunJob, FaultOutcome>();
  try {
    await runInWorkers(jobs, workers, (job, result) => {
      const outcome = judgeFault(rows[jobs.indexOf(job)]!, result);
      outcomes.set(job, outcome);
      onOutcome(outcome);
    });
    return rows.map((row, i) => outcomes.get(jobs[i]!) ?? judgeFault(row, { error: 'never run' }));
  } finally {
    await Promise.all(jobs.map((j) => rm(j.reportDir, { recursive: true, force: true })));
  }
}

function judgeFault(row: FaultRow, result: RunResult): FaultOutcome {
  if (result.error !== undefined) {
    return { row, caught: false, problems: [`${row.name} (${row.rule}): ${result.error}`], line: `# ${row.label}fault ${row.name}: MISSED (${result.error})` };
  }
  const { summary, exitCode } = result;
  const variant: any = summary.variants[0];
  const rule = variant.rules.find((r: any) => r.id === row.rule);
  const failed = exitCode === 1 && summary.verdict === 'fail' && rule?.status === 'failed';
  // A fault that breaks only a SHOULD (stricter than the official schema) is caught as a warning of its rule.
  const warned = row.level === 'SHOULD' && rule?.status !== 'failed' && (rule?.warnings?.length ?? 0) > 0;
  const caught = failed || warned;
  const problems: string[] = [];
  if (!caught) problems.push(`${row.name} (${row.rule}): exit ${exitCode}, rule ${rule?.status}`);
  // The scoped run judged the rule (not merely left it unjudged) and nothing but it ran.
  const ran = variant.rules.filter((r: any) => r.status !== 'skipped' && r.status !== 'not-applicable').map((r: any) => r.id);
  if (caught && ran.join() !== row.rule) problems.push(`${row.name} (${row.rule}): the scoped run judged ${ran.join(', ')}`);
  const how = failed ? rule.failures[0].message.split('\n')[0] : warned ? `SHOULD warning: ${rule.warnings[0].problems?.[0] ?? rule.warnings[0].message}` : '';
  return { row, caught: problems.length === 0, problems, line: `# ${row.label}fault ${row.name}: ${caught ? 'detected' : 'MISSED'} by ${row.rule}${caught ? ` — ${how}` : ''}` };
}

/** One job's run, in this worker: its exit code and summary, or the error it threw. */
async function runJob(lib: typeof import('../../src/index.ts'), browser: Awaited<ReturnType<typeof lib.openBrowser>>, job: RunJob): Promise<RunResult> {
  try {
    const { summary, exitCode } = await lib.runConformance({ ...job.options, reportDir: job.reportDir, browser, env: { ...process.env, CI: 'true' } });
    return { exitCode, summary };
  } catch (error) {
    return { error: `the run threw ${(error as Error).message.split('\n')[0]}` };
  }
}

/** The worker: asks for a job, runs it, answers with its result, until told it is done. */
async function work(): Promise<void> {
  const lib: typeof import('../../src/index.ts') = await import(pathToFileURL(join(root, 'dist', 'src', 'index.js')).href);
  const browser = await lib.openBrowser();
  const jobs: Array<RunJob | undefined> = [];
  let wake: (() => void) | undefined;
  // The test that forked this worker is gone: so is the worker (and its browser, whose pipe closes).
  process.once('disconnect', () => process.exit(1));
  process.on('message', (m: { job?: RunJob; done?: true }) => {
    jobs.push(m.job);
    wake?.();
  });
  const take = async () => {
    while (!jobs.length) await new Promise<void>((r) => (wake = r));
    return jobs.shift();
  };
  try {
    process.send!({ ready: true });
    for (let job = await take(); job; job = await take()) process.send!({ result: await runJob(lib, browser, job) });
  } finally {
    process.removeAllListeners('disconnect');
    await browser.close();
    process.disconnect();
  }
}

if (process.argv[1] === self && process.send) await work();
