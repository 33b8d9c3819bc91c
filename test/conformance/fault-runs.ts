// Sandbox-fault conformance runs for test/conformance/conform.test.ts, several per process: each
// run is its own `runConformance` (the library the CLI calls) with its own sandbox bank and only
// its fault on, so each fault's detection is proven on its own. What the runs share is the Node
// process (modules loaded once) and one PSU browser (`openBrowser()`: Chromium starts once; every
// journey still gets a wiped context).
//
// `checkFaults(rows, workers)` forks `workers` processes of this file and hands each the next row
// when it is free; run directly (`node test/conformance/fault-runs.ts`, forked with IPC) this file
// is such a worker.
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
  /** The run's options (report dir, browser and env are added by the worker). */
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

/** A fault's run that takes longer than this is a hang: its worker is killed, and the fault counts as missed. */
const RUN_BOUND_MS = 300_000;

/**
 * Runs every row in `workers` forked processes (a free worker takes the next row) and returns the
 * outcomes in the rows' order. A worker that dies, or whose run hangs past the bound, fails the row
 * it was running; a new worker takes the rows left.
 */
export async function checkFaults(rows: FaultRow[], workers: number, onOutcome: (o: FaultOutcome) => void = () => undefined): Promise<FaultOutcome[]> {
  const outcomes = new Map<FaultRow, FaultOutcome>();
  const record = (o: FaultOutcome) => {
    outcomes.set(o.row, o);
    onOutcome(o);
  };
  let next = 0;
  const worker = (): Promise<void> => new Promise<void>((resolve) => {
    const child = fork(self, [], { cwd: root, env: { ...process.env, NO_COLOR: '1', CI: 'true' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
    let current: FaultRow | undefined;
    let timer: NodeJS.Timeout | undefined;
    const give = () => {
      current = rows[next++];
      if (current) {
        child.send({ row: current });
        timer = setTimeout(() => child.kill('SIGKILL'), RUN_BOUND_MS);
      } else child.send({ done: true });
    };
    child.on('message', (m: { ready?: true; outcome?: Omit<FaultOutcome, 'row'> }) => {
      clearTimeout(timer);
      if (m.outcome && current) record({ row: current, ...m.outcome });
      give();
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const lost = current && !outcomes.has(current) ? current : undefined;
      if (lost) record({ row: lost, caught: false, problems: [`${lost.name} (${lost.rule}): the worker exited (${signal ?? code}) during its run (bound ${RUN_BOUND_MS} ms)`], line: `# ${lost.label}fault ${lost.name}: MISSED (worker exited)` });
      // A worker lost mid-run is replaced while rows are left.
      resolve(lost && next < rows.length ? worker() : undefined);
    });
  });
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, rows.length)) }, worker));
  return rows.map((r) => outcomes.get(r) ?? { row: r, caught: false, problems: [`${r.name} (${r.rule}): never run`], line: `# ${r.label}fault ${r.name}: MISSED (never run)` });
}

/** One fault's run, judged: exit 1 with the fault's rule failed (or, for a SHOULD, warned), and no other rule judged. */
async function checkFault(lib: typeof import('../../src/index.ts'), browser: Awaited<ReturnType<typeof lib.openBrowser>>, row: FaultRow): Promise<Omit<FaultOutcome, 'row'>> {
  const dir = await mkdtemp(join(tmpdir(), `obtpp-fault-${row.name}-`));
  try {
    const { summary, exitCode } = await lib.runConformance({ ...row.options, reportDir: dir, browser, env: { ...process.env, CI: 'true' } });
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
    return { caught: problems.length === 0, problems, line: `# ${row.label}fault ${row.name}: ${caught ? 'detected' : 'MISSED'} by ${row.rule}${caught ? ` — ${how}` : ''}` };
  } catch (error) {
    return { caught: false, problems: [`${row.name} (${row.rule}): the run threw ${(error as Error).message.split('\n')[0]}`], line: `# ${row.label}fault ${row.name}: MISSED (the run threw)` };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The worker: asks for a row, runs it, answers with its outcome, until told it is done. */
async function work(): Promise<void> {
  const lib: typeof import('../../src/index.ts') = await import(pathToFileURL(join(root, 'dist', 'src', 'index.js')).href);
  const browser = await lib.openBrowser();
  const rows: Array<FaultRow | undefined> = [];
  let wake: (() => void) | undefined;
  // The test that forked this worker is gone: so is the worker (and its browser, whose pipe closes).
  process.once('disconnect', () => process.exit(1));
  process.on('message', (m: { row?: FaultRow; done?: true }) => {
    rows.push(m.row);
    wake?.();
  });
  const take = async () => {
    while (!rows.length) await new Promise<void>((r) => (wake = r));
    return rows.shift();
  };
  try {
    process.send!({ ready: true });
    for (let row = await take(); row; row = await take()) process.send!({ outcome: await checkFault(lib, browser, row) });
  } finally {
    process.removeAllListeners('disconnect');
    await browser.close();
    process.disconnect();
  }
}

if (process.argv[1] === self && process.send) await work();
