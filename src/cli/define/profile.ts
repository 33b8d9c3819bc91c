import type { Command } from 'commander';
import type { Io } from '../io.ts';
import { action } from '../lazy.ts';
import { HEADS } from '../heads.ts';

export function defineProfile(program: Command, io: Io): void {
  const profile = program.command('profile').description(HEADS.profile.description);
  profile
    .command('check')
    .argument('<file>', 'a profile file (YAML or JSON) or a built-in profile name')
    .option('--json', 'print the resolved profile as JSON')
    .description('validate a profile and print it resolved, with secrets masked')
    .addHelpText('after', '\nExample:\n  $ BANK_SECRET=… obtpp profile check profiles/example-bank.yaml')
    .action(action(io, () => import('../commands/profile.ts')));
}
