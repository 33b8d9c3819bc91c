/**
 * The report dir's safety: a run writes only into a directory that is new, empty (dotfiles aside)
 * or an earlier obtpp report dir, and a reused one loses exactly the outputs of a run; an unknown
 * folder's files are never overwritten or deleted.
 */
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UsageError } from '../errors.ts';
import { refuseIfInUse } from './report-lock.ts';

/** Files and folders a run writes into its report dir: a reused dir loses exactly these. */
export const REPORT_OUTPUTS = ['summary.json', 'summary.md', 'junit.xml', 'report.html', 'report.html.partial', 'messages.ndjson', 'features', 'evidence', 'attestation.jws', 'manifest.json'];

/** True for a report dir of an earlier obtpp run (it holds obtpp's summary.json). */
async function isObtppReportDir(dir: string): Promise<boolean> {
  try {
    const summary = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8'));
    return summary?.tool?.name === 'obtpp';
  } catch {
    return false;
  }
}

/**
 * A report dir must be a directory that can be created, and either empty (dotfiles aside) or an
 * earlier obtpp report dir: an unknown folder's files are never overwritten or deleted.
 */
export async function checkReportDir(dir: string, flag: string | undefined): Promise<void> {
  const name = flag ?? dir;
  let info;
  try {
    info = await stat(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      // The nearest existing ancestor must be a directory we may write into.
      let up = dirname(dir);
      while (!(await stat(up).catch(() => undefined)) && dirname(up) !== up) up = dirname(up);
      const parent = await stat(up).catch(() => undefined);
      if (!parent?.isDirectory()) throw new UsageError(`--report-dir ${name} cannot be created: ${up} is not a directory`);
      const { access, constants } = await import('node:fs/promises');
      await access(up, constants.W_OK | constants.X_OK).catch(() => {
        throw new UsageError(`--report-dir ${name} cannot be created: ${up} is not writable`);
      });
      return;
    }
    throw new UsageError(`--report-dir ${name} cannot be used: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (!info.isDirectory()) throw new UsageError(`--report-dir ${name} is a file, not a directory`);
  const entries = (await readdir(dir)).filter((e) => !e.startsWith('.'));
  if (entries.length && !(await isObtppReportDir(dir))) {
    // A run in progress has begun to fill it: said as such (and which process), not as a stranger's folder.
    await refuseIfInUse(dir, flag);
    throw new UsageError(`--report-dir ${name} is not empty and is not an earlier obtpp report dir (no obtpp summary.json): its files are left alone`, {
      hint: 'choose an empty or new directory',
    });
  }
}

/** Creates the report dir, or clears an earlier run's outputs from it. Returns the first folder created. */
export async function prepareReportDir(dir: string, flag: string | undefined): Promise<string | undefined> {
  try {
    const created = await mkdir(dir, { recursive: true });
    if (!created) await clearOutputs(dir);
    return created;
  } catch (error) {
    throw new UsageError(`--report-dir ${flag ?? dir} cannot be created: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
}

export async function clearOutputs(dir: string): Promise<void> {
  for (const f of REPORT_OUTPUTS) await rm(join(dir, f), { recursive: true, force: true });
}

