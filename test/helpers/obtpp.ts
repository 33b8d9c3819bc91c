// The built binary (dist/src/cli/main.js; build first) run as a user runs it, for the tests that
// judge whole runs: plain output (NO_COLOR, CI), everything it printed, and its exit code.
import { execFile } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defined, runWarm, warmWanted } from './warm-cli.ts';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const bin = join(root, 'dist', 'src', 'cli', 'main.js');

export interface Run { code: number; stdout: string; stderr: string; signal?: NodeJS.Signals | null }

export interface RunOptions {
  /** Added to the test's environment (with NO_COLOR and CI set); with `inherit: false`, the whole environment. */
  env?: Record<string, string | undefined>;
  /** false: the command gets `env` alone, as a test that starts it with a bare environment means (default true). */
  inherit?: boolean;
  /** Default: the project's folder. */
  cwd?: string;
  /** A run past this is killed (code -1, its signal given). Default 300 s. */
  timeoutMs?: number;
  killSignal?: NodeJS.Signals;
  /**
   * Start the real binary (a process of its own) even where a warm worker could run the command
   * (test/helpers/warm-cli.ts): for what only a process shows (its exit by signal, its streams).
   */
  process?: boolean;
}

/** `obtpp …args` as a user runs it: plain output, everything it printed, its exit code. */
export function runObtpp(args: string[], o: RunOptions = {}): Promise<Run> {
  const env = defined(o.inherit === false ? { ...o.env } : { ...process.env, NO_COLOR: '1', CI: 'true', ...o.env });
  if (!o.process && warmWanted()) {
    return runWarm(args, { env, cwd: o.cwd ?? root, timeoutMs: o.timeoutMs ?? 300_000, killSignal: o.killSignal });
  }
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], {
      cwd: o.cwd ?? root,
      env,
      timeout: o.timeoutMs ?? 300_000,
      killSignal: o.killSignal ?? 'SIGTERM',
      maxBuffer: 64 * 1024 * 1024,
    }, (error, stdout, stderr) => {
      const e = error as (Error & { code?: unknown; signal?: NodeJS.Signals | null }) | null;
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : -1) : 0, signal: e?.signal ?? null, stdout, stderr });
    });
  });
}

/** `obtpp …args` from the project's folder; a run past `timeoutMs` is killed (code -1). */
export function obtpp(args: string[], timeoutMs = 300_000): Promise<Run> {
  return runObtpp(args, { timeoutMs });
}

/** The text of every file of a report dir (screenshots left out): what a secrets check reads. */
export async function reportText(dir: string): Promise<string> {
  const { readdir, readFile, stat } = await import('node:fs/promises');
  let text = '';
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d)) {
      const f = join(d, e);
      if ((await stat(f)).isDirectory()) await walk(f);
      else if (!/\.png$/.test(e)) text += await readFile(f, 'utf8');
    }
  };
  await walk(dir);
  return text;
}

/**
 * Fails when one of `secrets` stands in `text` as a value of its own, not inside a longer run of
 * letters and digits, and shows where: a report's timestamps (cucumber's nanoseconds), durations
 * and ids hold any six digits now and then, so a one-time password of 123456 matched one of them
 * in a fresh-clone CI (2026-11-30) where no password was ever sent.
 */
export function assertNoSecret(text: string, secrets: string[]): void {
  for (const secret of secrets) {
    const found = new RegExp(`(?<![A-Za-z0-9])${secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9])`).exec(text);
    if (found) throw new Error(`${secret} reached the report: …${text.slice(Math.max(0, found.index - 120), found.index + secret.length + 120)}…`);
  }
}
