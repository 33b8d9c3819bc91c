// `obtpp …` for the tests, run by a warm worker process instead of a fresh `node dist/src/cli/main.js`.
//
// A fresh process spends most of a short command loading modules and warming the JIT: a scoped
// `obtpp conform` costs about 3.9 s of CPU cold and 0.6–0.9 s in a process that has run one before
// (measured on the 2-core build machine). The suite starts the CLI a few hundred times, so each test
// process keeps workers (forked from this file) that import the CLI once and run one command at a
// time, each as its own process would: the command's environment replaces process.env, its folder
// is the working directory, stdin is empty, stdout and stderr are pipes (no TTY) whose text comes
// back with the exit code. Everything between the process and the program is src/cli/main.ts's few
// lines (the Node version gate, the compile cache, the EPIPE guard): the tests of those, of signals,
// of terminals and of stdin start the real binary (`OBTPP_TEST_REAL_CLI=1` makes every test do so).
//
// A worker that crashes, or that calls process.exit, answers with the exit code it ended with, as
// the real process would have; one that passes the time-out is killed (code -1 and the signal, like
// execFile's time-out) and a new worker serves the next command.
import { fork, type ChildProcess } from 'node:child_process';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const self = fileURLToPath(import.meta.url);
const root = join(dirname(self), '..', '..');

export interface WarmRun { code: number; stdout: string; stderr: string; signal?: NodeJS.Signals | null }

interface Request { id: number; args: string[]; env: Record<string, string>; cwd: string }
type Reply = { id: number; code: number; stdout: string; stderr: string };

/** At most this many workers per test process (commands beyond it wait for a free one). */
const MAX_WORKERS = 3;

interface Worker { child: ChildProcess; busy: boolean }
const workers = new Set<Worker>();
const waiting: Array<() => void> = [];
let nextId = 1;

function spawnWorker(): Worker {
  const child = fork(self, [], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    execArgv: [],
    serialization: 'advanced',
  });
  // What a worker writes outside a command (it should not) is dropped, not left to fill a pipe.
  child.stdout!.resume();
  child.stderr!.resume();
  const worker: Worker = { child, busy: false };
  workers.add(worker);
  child.on('exit', () => workers.delete(worker));
  idle(worker);
  return worker;
}

/** An idle worker keeps no test process alive. */
function idle(worker: Worker): void {
  worker.busy = false;
  worker.child.unref();
  (worker.child.channel as { unref?: () => void } | undefined)?.unref?.();
  (worker.child.stdout as unknown as { unref?: () => void })?.unref?.();
  (worker.child.stderr as unknown as { unref?: () => void })?.unref?.();
  waiting.shift()?.();
}

async function take(): Promise<Worker> {
  for (;;) {
    const free = [...workers].find((w) => !w.busy && w.child.connected);
    if (free) return claim(free);
    if (workers.size < MAX_WORKERS) return claim(spawnWorker());
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
}

function claim(worker: Worker): Worker {
  worker.busy = true;
  worker.child.ref();
  (worker.child.channel as { ref?: () => void } | undefined)?.ref?.();
  return worker;
}

/** Runs `obtpp …args` in a warm worker; resolves like execFile's callback would. */
export async function runWarm(args: string[], o: { env: Record<string, string | undefined>; cwd: string; timeoutMs: number; killSignal?: NodeJS.Signals }): Promise<WarmRun> {
  const worker = await take();
  const env = Object.fromEntries(Object.entries(o.env).filter((e): e is [string, string] => e[1] !== undefined));
  const request: Request = { id: nextId++, args, env, cwd: o.cwd };
  return new Promise<WarmRun>((resolve) => {
    let done = false;
    const finish = (run: WarmRun, keep: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      worker.child.off('message', onMessage);
      worker.child.off('exit', onExit);
      if (keep) idle(worker);
      else {
        workers.delete(worker);
        waiting.shift()?.();
      }
      resolve(run);
    };
    const onMessage = (m: Reply) => {
      if (m.id === request.id) finish({ code: m.code, stdout: m.stdout, stderr: m.stderr, signal: null }, true);
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
    worker.child.send(request);
  });
}

/** Whether a test's command may run in a warm worker (`OBTPP_TEST_REAL_CLI=1`: never). */
export function warmWanted(): boolean {
  return !process.env.OBTPP_TEST_REAL_CLI;
}

// ---- the worker ----------------------------------------------------------------------------

async function serve(): Promise<void> {
  const nodeModule = await import('node:module');
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  const dist = (file: string) => pathToFileURL(join(root, 'dist', 'src', 'cli', file)).href;
  const { runCli } = await import(dist('program.js')) as { runCli: (args: string[], io: unknown) => Promise<number> };
  const { colourWanted, waitForProcessSignal } = await import(dist('io.js')) as {
    colourWanted: (env: Record<string, string | undefined>, out: boolean, err: boolean) => boolean;
    waitForProcessSignal: () => Promise<string>;
  };

  let current: { id: number; out: string[]; err: string[] } | undefined;
  const send = (reply: Reply) => new Promise<void>((resolve) => process.send!(reply, () => resolve()));

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
  process.on('disconnect', () => realExit(0));

  process.on('message', async (request: Request) => {
    for (const key of Object.keys(process.env)) delete process.env[key];
    Object.assign(process.env, request.env);
    process.chdir(request.cwd);
    process.exitCode = undefined;
    const c = { id: request.id, out: [] as string[], err: [] as string[] };
    current = c;
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
    await send({ id: c.id, code, stdout: c.out.join(''), stderr: c.err.join('') });
  });
}

if (process.argv[1] === self && process.send) await serve();
