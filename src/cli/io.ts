import type { PsuBrowser } from '../psu/index.ts';

/** What a command may touch of the outside world. Only src/cli/main.ts builds one from `process`. */
export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
  /** obtpp's colours in what it writes (see {@link colourWanted}); spinners are `interactive`'s. */
  color: boolean;
  interactive: boolean;
  /** Set by commands: 0 ok, 1 non-conformant / bank said no, 2 usage, 3 cannot run. */
  exitCode: number;
  /**
   * Resolves on the first SIGINT or SIGTERM after the call (long-running commands such as
   * `obtpp sandbox` await it to stop cleanly). Listeners exist only while it is awaited: until the
   * signal, or until `until` aborts (then it never resolves), so a command that ends first leaves
   * no listener behind in a process that lives on (a library caller, a test's warm worker).
   */
  waitForSignal?: (until?: AbortSignal) => Promise<string>;
  /** Where a command reads what the user types or pipes (a PSU's password with --password-stdin); absent: nothing to read. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  /**
   * A PSU browser lent by a program that runs commands in its own process (from `openBrowser()`):
   * `conform` runs its journeys in it, as runConformance's `browser` option does, and so does every
   * command of a session that walks the PSU through the bank's pages (`consent authorise`, …);
   * contexts are wiped between journeys, and the browser is left open. Absent — always, from the
   * binary — a command starts its own.
   */
  browser?: PsuBrowser;
}

/**
 * The colour policy of every command (https://no-color.org, https://force-color.org): NO_COLOR
 * (any non-empty value) switches colour off, and wins; FORCE_COLOR (non-empty, not `0` or `false`)
 * switches it on even into a pipe or a file; otherwise colour only when stdout AND stderr are
 * terminals and TERM is not `dumb`. One flag serves both streams, so a stream redirected to a file
 * (`obtpp conform > out.txt`, `2> log`) never receives an escape sequence.
 */
export function colourWanted(env: Record<string, string | undefined>, stdoutTty: boolean, stderrTty: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force.toLowerCase() !== 'false';
  return stdoutTty && stderrTty && env.TERM !== 'dumb';
}

export function ioFromProcess(): Io {
  const env = process.env;
  const tty = Boolean(process.stdout.isTTY);
  const errTty = Boolean(process.stderr.isTTY);
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env,
    cwd: process.cwd(),
    color: colourWanted(env, tty, errTty),
    // A spinner needs a terminal with columns to draw in: a 0-column pty (CI runners, `script`) or TERM=dumb gets plain lines.
    interactive: errTty && !env.CI && (process.stderr.columns ?? 0) > 0 && env.TERM !== 'dumb',
    exitCode: 0,
    stdin: process.stdin,
    waitForSignal: waitForProcessSignal,
  };
}

/** Resolves on the process's first SIGINT or SIGTERM after the call; its listeners live only until then, or until `until` aborts. */
export function waitForProcessSignal(until?: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    if (until?.aborted) return;
    const off = () => {
      process.off('SIGINT', on).off('SIGTERM', on);
      until?.removeEventListener('abort', off);
    };
    const on = (signal: NodeJS.Signals) => {
      off();
      resolve(signal);
    };
    process.once('SIGINT', on).once('SIGTERM', on);
    until?.addEventListener('abort', off, { once: true });
  });
}
