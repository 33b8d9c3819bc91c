/** What a command may touch of the outside world. Only src/cli/main.ts builds one from `process`. */
export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
  /** Colours and spinners only on a terminal, never with NO_COLOR, never in CI. */
  color: boolean;
  interactive: boolean;
  /** Set by commands: 0 ok, 1 non-conformant / bank said no, 2 usage, 3 cannot run. */
  exitCode: number;
  /**
   * Resolves on the first SIGINT or SIGTERM after the call (long-running commands such as
   * `obtpp sandbox` await it to stop cleanly). Listeners exist only while it is awaited.
   */
  waitForSignal?: () => Promise<string>;
}

export function ioFromProcess(): Io {
  const env = process.env;
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  const tty = Boolean(process.stdout.isTTY);
  const errTty = Boolean(process.stderr.isTTY);
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env,
    cwd: process.cwd(),
    color: !noColor && env.FORCE_COLOR !== '0' && (tty || errTty),
    // A spinner needs a terminal with columns to draw in: a 0-column pty (CI runners, `script`) or TERM=dumb gets plain lines.
    interactive: errTty && !env.CI && (process.stderr.columns ?? 0) > 0 && env.TERM !== 'dumb',
    exitCode: 0,
    waitForSignal: () => new Promise((resolve) => {
      const on = (signal: NodeJS.Signals) => {
        process.off('SIGINT', on).off('SIGTERM', on);
        resolve(signal);
      };
      process.once('SIGINT', on).once('SIGTERM', on);
    }),
  };
}
