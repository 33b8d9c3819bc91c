import type { Io } from '../io.ts';
import { diffSummaries, readSummary, renderDiff } from '../../conformance/diff.ts';
import { ExitCode } from '../../errors.ts';

export async function run(io: Io, oldDir: string, newDir: string, options: { json?: boolean }): Promise<void> {
  const [before, after] = await Promise.all([readSummary(oldDir, io.cwd), readSummary(newDir, io.cwd)]);
  const diff = diffSummaries(before, after);
  io.stdout.write(options.json ? JSON.stringify(diff, null, 2) + '\n' : renderDiff(diff, { old: oldDir, new: newDir }) + '\n');
  io.exitCode = diff.regressed ? ExitCode.nonConformant : ExitCode.ok;
}
