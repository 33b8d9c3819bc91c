import type { Io } from '../io.ts';
import { diffSummaries, readSummary, renderDiff } from '../../conformance/diff.ts';
import { ExitCode } from '../../errors.ts';
import { forTerminal, jsonForTerminal } from '../terminal.ts';

export async function run(io: Io, oldDir: string, newDir: string, options: { json?: boolean }): Promise<void> {
  const [before, after] = await Promise.all([readSummary(oldDir, io.cwd), readSummary(newDir, io.cwd)]);
  const diff = diffSummaries(before, after);
  // The summaries quote banks (failure messages): shown escaped, like all outside text.
  io.stdout.write(options.json ? jsonForTerminal(diff) + '\n' : forTerminal(renderDiff(diff, { old: oldDir, new: newDir })) + '\n');
  io.exitCode = diff.regressed ? ExitCode.nonConformant : ExitCode.ok;
}
