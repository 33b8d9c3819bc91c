import type { Command } from 'commander';
import type { Io } from '../io.ts';
import { action } from '../lazy.ts';
import { HEADS } from '../heads.ts';

export function defineDiff(program: Command, io: Io): void {
  program
    .command('diff')
    .description(HEADS.diff.description)
    .argument('<old-dir>', 'the earlier report dir (or its summary.json)')
    .argument('<new-dir>', 'the later report dir (or its summary.json)')
    .option('--json', 'print the changes as one JSON document')
    .addHelpText('after', `
Exit codes: 0 nothing regressed, 1 a rule newly fails or is newly not judged, 2 bad usage.

Examples:
  $ obtpp diff reports/last reports/now
  $ obtpp diff baseline/summary.json reports/ci/summary.json --json`)
    .action(action(io, () => import('../commands/diff.ts')));
}
