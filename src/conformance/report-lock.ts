/**
 * One run per report folder. Two runs writing the same --report-dir would interleave their
 * NDJSON, JUnit and HTML and remove each other's files; the second is refused up front instead
 * (exit 2, one line), before it starts a bank or a browser. The lock (src/lock.ts) is the
 * `<report-dir>.lock` directory next to the folder (not inside: the folder holds only the
 * report, which an attestation signs), refreshed while the run lasts and released when it ends;
 * one left by a run that crashed is taken over once STALE_MS old.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UsageError } from '../errors.ts';
import { acquireLock, LockBusyError } from '../lock.ts';

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
    if (error instanceof LockBusyError) {
      throw new UsageError(`--report-dir ${flag ?? reportDir} is being written by another obtpp conform run (lock ${reportDir}.lock): choose another folder, or wait for that run to end`, { cause: error });
    }
    throw new UsageError(`--report-dir ${flag ?? reportDir} cannot be locked: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
}
