/**
 * A lock between processes: a directory created next to what it guards (mkdir is atomic on every
 * local file system), its mtime refreshed while held, taken over once older than `staleMs` (its
 * holder crashed), removed on release and, failing that, when the process exits.
 *
 * Written here rather than taken from proper-lockfile, which does the same with the same layout:
 * proper-lockfile releases its locks through signal-exit, which re-raises SIGINT and SIGTERM once
 * the process's own handlers have run, and so kills `obtpp conform` before it writes its
 * "interrupted" report and exits 130 / 143.
 */
import { rmSync } from 'node:fs';
import { mkdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';

export interface LockOptions {
  /** A lock not refreshed for this long belongs to a process that is gone. */
  staleMs: number;
  /** How long to wait for a held lock (0: not at all). */
  waitMs: number;
}

/** The lock is held by another live process (after waiting `waitMs`). */
export class LockBusyError extends Error {
  readonly code = 'ELOCKED';
  constructor(path: string) {
    super(`${path} is held by another process`);
    this.name = 'LockBusyError';
  }
}

/** Takes the lock at `lockPath` (a directory that must not otherwise exist); resolves with its release. */
export async function acquireLock(lockPath: string, options: LockOptions): Promise<() => Promise<void>> {
  const deadline = Date.now() + options.waitMs;
  let delay = 5;
  for (;;) {
    try {
      await mkdir(lockPath);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const info = await stat(lockPath).catch(() => undefined);
    if (!info) continue; // released meanwhile: try again at once
    if (Date.now() - info.mtimeMs > options.staleMs) {
      // Moved aside first, so that of two processes taking a stale lock over, one removes it.
      const aside = `${lockPath}.stale-${randomBytes(4).toString('hex')}`;
      if (await rename(lockPath, aside).then(() => true, () => false)) await rm(aside, { recursive: true, force: true });
      continue;
    }
    if (Date.now() >= deadline) throw new LockBusyError(lockPath);
    await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
    delay = Math.min(delay * 1.5, 100);
  }
  const refresh = setInterval(() => {
    const now = new Date();
    utimes(lockPath, now, now).catch(() => undefined);
  }, Math.max(options.staleMs / 3, 100));
  refresh.unref();
  const onExit = () => rmSync(lockPath, { recursive: true, force: true });
  process.once('exit', onExit);
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    clearInterval(refresh);
    process.off('exit', onExit);
    await rm(lockPath, { recursive: true, force: true });
  };
}
