/**
 * One run per report folder. Two runs writing the same --report-dir would interleave their
 * NDJSON, JUnit and HTML and remove each other's files; the second is refused up front instead
 * (exit 2, one line), before it starts a bank or a browser. The lock (src/lock.ts) is the
 * `<report-dir>.lock` directory next to the folder (not inside: the folder holds only the
 * report, which an attestation signs), refreshed while the run lasts and released when it ends;
 * one left by a run that crashed is taken over once STALE_MS old. The lock names the process
 * holding it, and a run refused says which, whether it is refused by the lock or by the folder's
 * contents (a run that has begun writing leaves files but no summary.json yet).
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UsageError } from '../errors.ts';
import { acquireLock, lockHolder, LockBusyError, type LockHolder } from '../lock.ts';

/** A lock not refreshed for this long belongs to a run that is gone. */
const STALE_MS = 10_000;

/** Takes the report folder's lock, or throws UsageError; resolves with its release. */
export async function lockReportDir(reportDir: string, flag: string | undefined): Promise<() => Promise<void>> {
  try {
    await mkdir(dirname(reportDir), { recursive: true });
  } catch (error) {
    throw new UsageError(`--report-dir ${flag ?? reportDir} cannot be created: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
  try {
    return await acquireLock(`${reportDir}.lock`, { staleMs: STALE_MS, waitMs: 0 });
  } catch (error) {
    if (error instanceof LockBusyError) throw inUse(reportDir, flag, error.holder ?? (await lockHolder(`${reportDir}.lock`, STALE_MS)), error);
    throw new UsageError(`--report-dir ${flag ?? reportDir} cannot be locked: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
}

/**
 * Refuses, like lockReportDir, a folder that another run holds: for the check of the folder's
 * contents, which a run in progress has begun to fill. Resolves when no live run holds it.
 */
export async function refuseIfInUse(reportDir: string, flag: string | undefined): Promise<void> {
  const holder = await lockHolder(`${reportDir}.lock`, STALE_MS);
  if (holder) throw inUse(reportDir, flag, holder);
}

/** The one line of a refusal: the folder is in use by a run, which process (when the lock says), and what to do. */
function inUse(reportDir: string, flag: string | undefined, holder: Partial<LockHolder> | undefined, cause?: unknown): UsageError {
  const who = holder?.pid !== undefined ? `process ${holder.pid}${holder.since ? `, since ${holder.since}` : ''}` : 'a process that has just taken it';
  return new UsageError(`--report-dir ${flag ?? reportDir} is in use by another obtpp conform run (${who}; lock ${reportDir}.lock): choose another folder, or wait for that run to end`, { cause });
}
