// Sandbox conformance runs for test/conformance/conform.test.ts (each rule fault) and
// test/conformance/chaos.test.ts (each chaos fault): each run is its own `runConformance` (the
// library the CLI calls) with its own sandbox bank and only its fault on, so each fault's effect is
// proven on its own. The runs go to the test run's warm workers (test/helpers/warm-cli.ts: modules
// loaded and the JIT warm from earlier runs and commands) and share the test run's PSU browser
// (every journey still gets a wiped context).
//
// `runInWorkers(jobs, workers)` keeps `workers` runs going at once (a free slot takes the next
// job); `checkFaults` judges the rule faults' runs.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runJobWarm, type RunJob, type RunResult } from '../helpers/warm-cli.ts';

export type { RunJob, RunResult };

/** One fault and the run that must catch it: data (JSON), so that it can go to a worker. */
export interface FaultRow {
  /** Printed before the fault's name, e.g. `berlin-group ` (empty for the UK sandbox). */
  label: string;
  name: string;
  rule: string;
  /** A fault that breaks only a SHOULD is caught as a warning of its rule. */
  level?: 'SHOULD';
  /** The run's options (the report dir, browser and env are added). */
  options: RunJob['options'];
  /**
   * The run waits out a consent's clock (an expiry), so it is mostly idle: it goes to a lane of its
   * own beside the `workers` that compute, instead of holding one of them while the CPU waits.
   */
  waits?: boolean;
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

/**
 * Runs every job, `workers` at a time (a free slot takes the next job), and returns the results in
 * the jobs' order; `onResult` hears of each as it comes. A worker that dies, or whose run hangs
 * past the bound, fails the job it was running; the pool gives the next job another worker.
 */
export async function runInWorkers(jobs: RunJob[], workers: number, onResult: (job: RunJob, result: RunResult) => void = () => undefined): Promise<RunResult[]> {
  const results = new Map<RunJob, RunResult>();
  let next = 0;
  const slot = async (): Promise<void> => {
    for (let job = jobs[next++]; job; job = jobs[next++]) {
      const result = await runJobWarm(job, { timeoutMs: RUN_BOUND_MS });
      results.set(job, result);
      onResult(job, result);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, jobs.length)) }, slot));
  return jobs.map((j) => results.get(j) ?? { error: 'never run' });
}

/**
 * Runs every fault's row in `workers` worker processes and returns the outcomes in the rows'
 * order, each judged: exit 1 with the fault's rule failed (or, for a SHOULD, warned), and no other
 * rule judged. The rows that wait (`waits`) run one at a time in one more worker, beside the others:
 * two of them side by side in the list held both workers for seconds in which the machine idled.
 */
export async function checkFaults(rows: FaultRow[], workers: number, onOutcome: (o: FaultOutcome) => void = () => undefined): Promise<FaultOutcome[]> {
  // A fault's run is judged by its summary: the other reports are left unwritten (reports.test.ts proves the option).
  const jobs = await Promise.all(rows.map(async (row) => ({ options: { reports: [], ...row.options }, reportDir: await mkdtemp(join(tmpdir(), `obtpp-fault-${row.name}-`)) })));
  const outcomes = new Map<RunJob, FaultOutcome>();
  try {
    const judge = (job: RunJob, result: RunResult) => {
      const outcome = judgeFault(rows[jobs.indexOf(job)]!, result);
      outcomes.set(job, outcome);
      onOutcome(outcome);
    };
    await Promise.all([
      runInWorkers(jobs.filter((_, i) => !rows[i]!.waits), workers, judge),
      runInWorkers(jobs.filter((_, i) => rows[i]!.waits), 1, judge),
    ]);
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
