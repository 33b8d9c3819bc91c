// `obtpp …` for the tests, run by a warm worker process instead of a fresh `node dist/src/cli/main.js`;
// and whole conformance runs (`runConformance`, the function the binary calls) run the same way.
//
// A fresh process spends most of a short command loading modules and warming the JIT: a scoped
// `obtpp conform` costs about 3.4 s of Node's CPU cold and 0.9–1.1 s in a process that has run one
// before (`node /tmp/coldwarm.mjs`-style: four runs of `--tags @COF-04` in one process, 2-core
// build machine). The suite runs the CLI a few hundred times and conformance runs a few hundred
// more, from over a hundred test files, so workers are kept warm for the whole `npm test`:
//
// - **One pool for the whole test run.** `npm test`'s global set-up (test/global-setup.ts) starts a
//   {@link WorkerPool} and serves it on a Unix socket of its own (a folder only this user reads),
//   whose path every test file gets as OBTPP_TEST_POOL. A test file's `runWarm` / `runJobWarm`
//   send their request there; the pool hands it to an idle worker, the warmest first, or starts
//   one when none is idle (never a queue: a command such as `obtpp sandbox` may hold its worker
//   until the test ends it, and another command must not wait for that).
// - **Without the set-up** (one test file run by hand without `--test-global-setup`) the test
//   process keeps a pool of its own, the same class.
//
// Each command runs as its own process would: the command's environment replaces process.env, its
// folder is the working directory, stdin is empty, stdout and stderr are pipes (no TTY) whose text
// comes back with the exit code. Everything between the process and the program is
// src/cli/main.ts's few lines (the Node version gate, the compile cache, the EPIPE guard): the
// tests of those, of signals, of terminals and of stdin start the real binary
// (`OBTPP_TEST_REAL_CLI=1` makes every test do so).
//
// A worker that crashes, or that calls process.exit, answers with the exit code it ended with, as
// the real process would have; one that passes the time-out is killed (code -1 and the signal, like
// execFile's time-out) and a new worker serves the next command.
import { fork, type ChildProcess } from 'node:child_process';
import { createConnection, type Socket } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import type { ConformanceEvent, RunConformanceOptions } from '../../src/index.ts';

const self = fileURLToPath(import.meta.url);
const root = join(dirname(self), '..', '..');

export interface WarmRun { code: number; stdout: string; stderr: string; signal?: NodeJS.Signals | null }

/** One conformance run for a worker: its options (data, JSON) and the report dir it writes. */
export interface RunJob {
  options: Omit<RunConformanceOptions, 'reportDir' | 'browser' | 'env' | 'signal' | 'onEvent'>;
  reportDir: string;
  /** Also give back what the run told its `onEvent` as it went, each with when (ms after the run began). */
  events?: boolean;
}

/** One event of a run (RunConformanceOptions.onEvent), and when it came: ms after the run began. */
export interface TimedEvent { at: number; e: ConformanceEvent }

/** What a worker's run gave: its exit code and summary (and its events, when asked), or why there is none. */
export type RunResult = { exitCode: number; summary: any; events?: TimedEvent[]; error?: undefined } | { error: string; exitCode?: undefined; summary?: undefined; events?: undefined };

/** What a worker is asked: a command line, or a conformance run; both with the environment and folder they run in. */
export type Task =
  | { kind: 'cli'; args: string[]; env: Record<string, string>; cwd: string }
  | { kind: 'run'; job: RunJob; env: Record<string, string>; cwd: string };

/**
 * What the pool answers: the command's outcome (a run's too: `result`), which worker process served
 * it, and how many tasks that worker had served before (0: one started for this task).
 */
export type Outcome = WarmRun & { result?: RunResult; worker?: number; servedBefore?: number };

type WorkerReply = { id: number; code: number; stdout: string; stderr: string; result?: RunResult };

/**
 * Workers beyond this many idle ones end (a burst of commands leaves no crowd behind). Six: the
 * run's first two files keep six busy at once (the fault sweep's two and its waiting lane, the OIDF
 * runs' three); with four kept, two of them ended when those files did, and the next burst (chaos'
 * four runs beside the other lane's commands) started new ones, each running its first task cold.
 */
const MAX_IDLE = 6;
/**
 * A worker that has served this many tasks ends once idle (memory that grows stays bounded). What
 * grows is mostly code: each new kind of run compiles the validators and paths it uses, once.
 * runConformance in a loop in one process, the fault sweep's runs of 20 faults over and over, a full
 * GC every 20 runs: 130 MB of heap after 20 runs, 160 MB after 100, 162 MB after 160. At 150
 * tasks the fault sweep's workers ended mid-sweep, and each new one ran its first runs cold (about
 * 2.5 s of CPU for the first against 0.4 s warm).
 */
const MAX_TASKS = 400;

/** How long a worker the pool let go may take to close its browser before it ends regardless. */
const WORKER_CLOSE_MS = 5_000;

interface Worker { child: ChildProcess; busy: boolean; served: number }

/**
 * Warm worker processes (forked from this file), each running one task at a time. `dispatch`
 * never waits for a busy worker: it takes the warmest idle one or starts another.
 */
export class WorkerPool {
  private readonly workers = new Set<Worker>();
  private nextId = 1;
  private closed = false;
  private readonly env: NodeJS.ProcessEnv;

  /** `env`: the workers' environment at start (each task then brings its own). */
  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.env = env;
  }

  /** Runs one task; resolves like execFile's callback would (a run's result in `result`). */
  dispatch(task: Task, o: { timeoutMs: number; killSignal?: NodeJS.Signals }): Promise<Outcome> {
    if (this.closed) return Promise.resolve({ code: -1, signal: null, stdout: '', stderr: '(the worker pool is closed)' });
    const worker = this.take();
    const servedBefore = worker.served;
    const id = this.nextId++;
    return new Promise<Outcome>((resolve) => {
      let done = false;
      const finish = (run: Outcome, keep: boolean) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        worker.child.off('message', onMessage);
        worker.child.off('exit', onExit);
        if (keep) this.idle(worker);
        else this.workers.delete(worker);
        resolve(run);
      };
      const onMessage = (m: WorkerReply) => {
        if (m.id === id) finish({ code: m.code, stdout: m.stdout, stderr: m.stderr, signal: null, worker: worker.child.pid, servedBefore, ...(m.result ? { result: m.result } : {}) }, true);
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
        finish({ code: code ?? -1, signal, stdout: '', stderr: `(the worker running obtpp ended: code ${code}, signal ${signal})` }, false);
      const timer = setTimeout(() => {
        // The signal first (a command that awaits one, like `obtpp sandbox`, stops on it), then the
        // channel (the worker ends when it goes), then SIGKILL for one that still lingers.
        const { child } = worker;
        child.kill(o.killSignal ?? 'SIGTERM');
        if (child.connected) child.disconnect();
        setTimeout(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'), 2_000).unref();
        child.unref();
        finish({ code: -1, signal: o.killSignal ?? 'SIGTERM', stdout: '', stderr: `(killed after ${o.timeoutMs} ms)` }, false);
      }, o.timeoutMs);
      worker.child.on('message', onMessage);
      worker.child.on('exit', onExit);
      worker.child.send({ id, ...task });
    });
  }

  /**
   * Ends every worker (a task still running ends with its worker) and waits, at most `boundMs`,
   * until each has exited: a worker reaped here has its CPU counted in this process's children's.
   * Each is let go (its channel closed): it closes its browser, then ends; one that has not ended
   * once its own bound for that has passed gets SIGTERM.
   */
  async close(boundMs = 10_000): Promise<void> {
    this.closed = true;
    const workers = [...this.workers];
    this.workers.clear();
    const running = (w: Worker) => w.child.exitCode === null && w.child.signalCode === null;
    const exits = workers.map((w) => new Promise<void>((resolve) => {
      if (!running(w)) return resolve();
      w.child.once('exit', () => resolve());
      if (w.child.connected) w.child.disconnect();
      else w.child.kill('SIGTERM');
    }));
    const nudge = setTimeout(() => {
      for (const w of workers) if (running(w)) w.child.kill('SIGTERM');
    }, WORKER_CLOSE_MS + 1_000);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(exits), new Promise<void>((resolve) => (timer = setTimeout(resolve, boundMs)))]);
    clearTimeout(timer);
    clearTimeout(nudge);
  }

  private spawn(): Worker {
    const child = fork(self, [], {
      cwd: root,
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      execArgv: [],
      serialization: 'advanced',
    });
    // What a worker writes outside a command (it should not) is dropped, not left to fill a pipe.
    child.stdout!.resume();
    child.stderr!.resume();
    const worker: Worker = { child, busy: false, served: 0 };
    this.workers.add(worker);
    child.on('exit', () => this.workers.delete(worker));
    return worker;
  }

  /** The idle worker that has served most (its JIT is the warmest), or a new one. */
  private take(): Worker {
    let best: Worker | undefined;
    for (const w of this.workers) if (!w.busy && w.child.connected && (!best || w.served > best.served)) best = w;
    const worker = best ?? this.spawn();
    worker.busy = true;
    worker.child.ref();
    (worker.child.channel as { ref?: () => void } | undefined)?.ref?.();
    return worker;
  }

  /** An idle worker keeps no process alive; one too many, or one that has served its share, ends. */
  private idle(worker: Worker): void {
    worker.busy = false;
    worker.served += 1;
    const idle = [...this.workers].filter((w) => !w.busy).length;
    if (idle > MAX_IDLE || worker.served >= MAX_TASKS) {
      this.workers.delete(worker);
      if (worker.child.connected) worker.child.disconnect();
      return;
    }
    worker.child.unref();
    (worker.child.channel as { unref?: () => void } | undefined)?.unref?.();
    (worker.child.stdout as unknown as { unref?: () => void })?.unref?.();
    (worker.child.stderr as unknown as { unref?: () => void })?.unref?.();
  }
}

// ---- the client: the shared pool over its socket, else a pool of this process ---------------

let localPool: WorkerPool | undefined;
let connection: PoolConnection | undefined;

/** One test process's connection to the shared pool: requests by id over one socket, one JSON per line. */
class PoolConnection {
  private readonly socket: Socket;
  private readonly pending = new Map<number, (o: Outcome) => void>();
  private nextId = 1;
  private buffer = '';

  constructor(path: string) {
    this.socket = createConnection(path);
    this.socket.setEncoding('utf8');
    this.socket.unref();
    this.socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (let nl = this.buffer.indexOf('\n'); nl >= 0; nl = this.buffer.indexOf('\n')) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        const { id, outcome } = JSON.parse(line) as { id: number; outcome: Outcome };
        this.pending.get(id)?.(outcome);
        this.pending.delete(id);
        if (!this.pending.size) this.socket.unref();
      }
    });
    const lost = (why: string) => {
      for (const resolve of this.pending.values()) resolve({ code: -1, signal: null, stdout: '', stderr: `(the test run's worker pool is gone: ${why})` });
      this.pending.clear();
      if (connection === this) connection = undefined;
    };
    this.socket.on('error', (e) => lost(e.message));
    this.socket.on('close', () => lost('connection closed'));
  }

  request(task: Task, o: { timeoutMs: number; killSignal?: NodeJS.Signals }): Promise<Outcome> {
    const id = this.nextId++;
    return new Promise<Outcome>((resolve) => {
      this.pending.set(id, resolve);
      this.socket.ref();
      this.socket.write(`${JSON.stringify({ id, task, timeoutMs: o.timeoutMs, killSignal: o.killSignal })}\n`);
    });
  }
}

function dispatch(task: Task, o: { timeoutMs: number; killSignal?: NodeJS.Signals }): Promise<Outcome> {
  const path = process.env.OBTPP_TEST_POOL;
  if (path) return (connection ??= new PoolConnection(path)).request(task, o);
  return (localPool ??= new WorkerPool()).dispatch(task, o);
}

/** An environment without its unset variables (as a process's environment has none). */
export const defined = (env: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));

/** Runs `obtpp …args` in a warm worker; resolves like execFile's callback would. */
export async function runWarm(args: string[], o: { env: Record<string, string | undefined>; cwd: string; timeoutMs: number; killSignal?: NodeJS.Signals }): Promise<WarmRun & { worker?: number; servedBefore?: number }> {
  const { result: _none, ...run } = await dispatch({ kind: 'cli', args, env: defined(o.env), cwd: o.cwd }, o);
  return run;
}

/**
 * Runs one conformance run (`runConformance` with the job's options, a browser of the worker's
 * own: the test run's shared Chromium where OBTPP_BROWSER_WS_ENDPOINT names it) in a warm worker.
 * A run that outlasts `timeoutMs` kills its worker and fails.
 */
export async function runJobWarm(job: RunJob, o: { env?: Record<string, string | undefined>; timeoutMs: number }): Promise<RunResult> {
  const env = defined({ ...process.env, NO_COLOR: '1', CI: 'true', ...o.env });
  const outcome = await dispatch({ kind: 'run', job, env, cwd: root }, { timeoutMs: o.timeoutMs, killSignal: 'SIGKILL' });
  if (outcome.result) return outcome.result;
  return { error: outcome.code === -1 && outcome.signal ? `the worker was killed (${outcome.signal}) after the bound of ${o.timeoutMs} ms` : `the worker exited (${outcome.signal ?? outcome.code}) during the run${outcome.stderr ? `: ${outcome.stderr.trim().split('\n').slice(-3).join(' / ')}` : ''}` };
}

/**
 * `runConformance` for a test that reads only what the run gives back (its summary, its exit code,
 * the reports in its folder): the run goes to a warm worker (runJobWarm), where obtpp is loaded and
 * its JIT warm from earlier runs, instead of loading the library cold in the test's own process.
 * `env` is added to the test's environment; `events` is what the run told its `onEvent`, each with
 * when (ms after the run began). A run that throws, or whose worker dies or outlasts `timeoutMs`,
 * rejects with why.
 */
export async function conformWarm(options: RunJob['options'] & { reportDir: string; env?: Record<string, string | undefined> }, timeoutMs = 300_000): Promise<{ summary: any; exitCode: number; events: TimedEvent[] }> {
  const { reportDir, env, ...rest } = options;
  const result = await runJobWarm({ options: rest, reportDir, events: true }, { timeoutMs, ...(env ? { env } : {}) });
  if (result.error !== undefined) throw new Error(`the conformance run did not complete: ${result.error}`);
  return { ...result, events: result.events ?? [] };
}

/** Whether a test's command may run in a warm worker (`OBTPP_TEST_REAL_CLI=1`: never). */
export function warmWanted(): boolean {
  return !process.env.OBTPP_TEST_REAL_CLI;
}

// ---- the worker ----------------------------------------------------------------------------

async function serve(): Promise<void> {
  const nodeModule = await import('node:module');
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  const dist = (file: string) => pathToFileURL(join(root, 'dist', 'src', file)).href;
  const { runCli } = await import(dist('cli/program.js')) as { runCli: (args: string[], io: unknown) => Promise<number> };
  const { colourWanted, waitForProcessSignal } = await import(dist('cli/io.js')) as {
    colourWanted: (env: Record<string, string | undefined>, out: boolean, err: boolean) => boolean;
    waitForProcessSignal: () => Promise<string>;
  };
  type Lib = typeof import('../../src/index.ts');
  let lib: Lib | undefined;
  // One browser per worker for its conformance runs (each run still gets a wiped context per journey).
  let browser: Awaited<ReturnType<Lib['openBrowser']>> | undefined;
  const openWorkerBrowser = async () => {
    lib ??= await import(dist('index.js')) as Lib;
    return (browser ??= await lib.openBrowser());
  };
  // The test run's one Chromium (global-setup.ts): a command that would connect to it gets the
  // worker's browser lent instead (Io.browser: `conform`, and the session commands that walk the
  // PSU's journey), as a program running commands in-process would lend it — a new connection and
  // a new context for the first journey of every command cost Chromium far more than a wiped one.
  // A command given any other browser (or none) keeps its own.
  const sharedEndpoint = process.env.OBTPP_BROWSER_WS_ENDPOINT;
  const lends = (_args: string[], env: Record<string, string>) => !!sharedEndpoint && env.OBTPP_BROWSER_WS_ENDPOINT === sharedEndpoint;

  let current: { id: number; out: string[]; err: string[] } | undefined;
  const send = (reply: WorkerReply) => new Promise<void>((resolve) => process.send!(reply, () => resolve()));

  // Writes to the process's own streams during a command are the command's (a real process prints them).
  const realOut = process.stdout.write.bind(process.stdout);
  const realErr = process.stderr.write.bind(process.stderr);
  const capture = (into: 'out' | 'err', real: typeof realOut) =>
    ((chunk: unknown, ...rest: unknown[]) => {
      if (!current) return real(chunk as string, ...(rest as []));
      current[into].push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      const cb = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      if (cb) queueMicrotask(cb);
      return true;
    }) as typeof realOut;
  process.stdout.write = capture('out', realOut);
  process.stderr.write = capture('err', realErr);

  // A crash a real process would die of ends this worker the same way, after answering.
  const die = (error: unknown) => {
    const text = error instanceof Error ? (error.stack ?? String(error)) : String(error);
    if (current) {
      const c = current;
      current = undefined;
      void send({ id: c.id, code: 1, stdout: c.out.join(''), stderr: c.err.join('') + text + '\n' }).then(() => process.exit(1));
    } else process.exit(1);
  };
  process.on('uncaughtException', die);
  process.on('unhandledRejection', die);
  const realExit = process.exit.bind(process);
  process.exit = ((code?: number) => {
    const c = current;
    current = undefined;
    const exitCode = typeof code === 'number' ? code : Number(process.exitCode ?? 0);
    if (c) void send({ id: c.id, code: exitCode, stdout: c.out.join(''), stderr: c.err.join('') }).then(() => realExit(exitCode));
    else realExit(exitCode);
    return undefined as never;
  }) as typeof process.exit;
  // The pool let go: the worker's browser closes first (a Chromium it launched for a bank on a
  // private CA ends, and its profile folder goes), within a bound, then the worker ends.
  process.on('disconnect', () => {
    let bound: NodeJS.Timeout | undefined;
    const closed = browser?.close().catch(() => undefined);
    void Promise.race([closed, new Promise((r) => (bound = setTimeout(r, WORKER_CLOSE_MS)))]).then(() => {
      clearTimeout(bound);
      realExit(0);
    });
  });

  const runJob = async (job: RunJob): Promise<RunResult> => {
    try {
      const lent = await openWorkerBrowser();
      const events: TimedEvent[] = [];
      const t0 = Date.now();
      const onEvent = job.events ? (e: ConformanceEvent) => void events.push({ at: Date.now() - t0, e }) : undefined;
      const { summary, exitCode } = await lib!.runConformance({ ...job.options, reportDir: job.reportDir, browser: lent, env: { ...process.env }, ...(onEvent ? { onEvent } : {}) });
      return { exitCode, summary, ...(job.events ? { events } : {}) };
    } catch (error) {
      return { error: `the run threw ${(error as Error).message.split('\n')[0]}` };
    }
  };

  // Node writes its compile cache when a process ends, and a worker lives the whole test run: the
  // modules it compiled reach the cache only through these flushes, after its first tasks and as
  // new kinds of run load new modules, so that a worker started later (and every other process of a
  // test run that began with no cache, as CI's fresh clone does) reads them instead of compiling again.
  // Before the answer (the flush is synchronous): whoever the answer reaches finds the cache written.
  let served = 0;
  const flushAfter = new Set([1, 3, 10, 30, 100]);
  const answered = () => {
    if (flushAfter.has(++served)) (nodeModule as { flushCompileCache?: () => void }).flushCompileCache?.();
  };

  process.on('message', async (request: Task & { id: number }) => {
    for (const key of Object.keys(process.env)) delete process.env[key];
    Object.assign(process.env, request.env);
    process.chdir(request.cwd);
    process.exitCode = undefined;
    const c = { id: request.id, out: [] as string[], err: [] as string[] };
    current = c;
    if (request.kind === 'run') {
      const result = await runJob(request.job);
      if (current !== c) return;
      current = undefined;
      answered();
      await send({ id: c.id, code: result.error === undefined ? result.exitCode : -1, stdout: c.out.join(''), stderr: c.err.join(''), result });
      return;
    }
    const stream = (into: string[]) => {
      const s = new PassThrough() as PassThrough & { isTTY?: boolean };
      s.on('data', (d: Buffer) => into.push(d.toString('utf8')));
      s.isTTY = false;
      return s;
    };
    const stdout = stream(c.out);
    const stderr = stream(c.err);
    const stdin = Readable.from([]) as Readable & { isTTY?: boolean };
    stdin.isTTY = false;
    const io = {
      stdout, stderr, stdin,
      env: process.env,
      cwd: request.cwd,
      color: colourWanted(process.env, false, false),
      interactive: false,
      exitCode: 0,
      waitForSignal: waitForProcessSignal,
      ...(lends(request.args, request.env) ? { browser: await openWorkerBrowser() } : {}),
    };
    let code: number;
    try {
      code = await runCli(request.args, io);
    } catch (error) {
      die(error);
      return;
    }
    // The PassThroughs deliver what was written before the end on the next ticks.
    await new Promise((r) => setImmediate(r));
    if (current !== c) return;
    current = undefined;
    answered();
    await send({ id: c.id, code, stdout: c.out.join(''), stderr: c.err.join('') });
  });
}

if (process.argv[1] === self && process.send) await serve();
