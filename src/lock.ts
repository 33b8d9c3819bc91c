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
import { mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

export interface LockOptions {
  /** A lock not refreshed for this long belongs to a process that is gone. */
  staleMs: number;
  /** How long to wait for a held lock (0: not at all). */
  waitMs: number;
}

/** Who holds a lock: written into it (`holder.json`) by the process that took it. */
export interface LockHolder {
  pid: number;
  /** When it took the lock (ISO 8601). */
  since: string;
}

/** The file inside a lock that names its holder. */
const HOLDER_FILE = 'holder.json';

/** The lock is held by another live process (after waiting `waitMs`); `holder` when it says who. */
export class LockBusyError extends Error {
  readonly code = 'ELOCKED';
  readonly holder?: LockHolder;
  constructor(path: string, holder?: LockHolder) {
    super(`${path} is held by ${holder ? `process ${holder.pid}` : 'another process'}`);
    this.name = 'LockBusyError';
    this.holder = holder;
  }
}

/**
 * The holder of the lock at `lockPath` while it is live (refreshed within `staleMs`); undefined
 * when there is no lock or it is stale. A lock just taken may not name its holder yet: `{}` then.
 */
export async function lockHolder(lockPath: string, staleMs: number): Promise<Partial<LockHolder> | undefined> {
  const info = await stat(lockPath).catch(() => undefined);
  if (!info?.isDirectory() || Date.now() - info.mtimeMs > staleMs) return undefined;
  try {
    const holder = JSON.parse(await readFile(join(lockPath, HOLDER_FILE), 'utf8')) as Partial<LockHolder>;
    return {
      ...(Number.isInteger(holder.pid) ? { pid: holder.pid } : {}),
      ...(typeof holder.since === 'string' ? { since: holder.since } : {}),
    };
  } catch {
    return {};
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
    if (Date.now() >= deadline) {
      const holder = await lockHolder(lockPath, options.staleMs);
      throw new LockBusyError(lockPath, holder?.pid !== undefined && holder.since !== undefined ? holder as LockHolder : undefined);
    }
    await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
    delay = Math.min(delay * 1.5, 100);
  }
  // Who holds it, for a process refused: written aside and renamed in, so that it is read whole or not at all.
  const holderTmp = join(lockPath, `.${HOLDER_FILE}.${randomBytes(4).toString('hex')}`);
  await writeFile(holderTmp, JSON.stringify({ pid: process.pid, since: new Date().toISOString() } satisfies LockHolder))
    .then(() => rename(holderTmp, join(lockPath, HOLDER_FILE)))
    .catch(() => undefined);
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
