import { Command, CommanderError } from 'commander';
import { ObtppError, ExitCode, ProfileError, oneLine } from '../errors.ts';
import type { Io } from './io.ts';
import { version } from './version.ts';
import { defineProfile } from './define/profile.ts';
import { defineConform } from './define/conform.ts';
import { defineSandbox } from './define/sandbox.ts';
import { defineConsent } from './define/consent.ts';
import { defineAccounts } from './define/accounts.ts';
import { defineFunds } from './define/funds.ts';
import { definePayment } from './define/payment.ts';
import { defineFlow } from './define/flow.ts';
import { defineToken } from './define/token.ts';

/** Every command's definition (light modules: options and help only; actions load lazily). */
const definitions: Array<(program: Command, io: Io) => void> = [
  defineConform, defineProfile, defineSandbox,
  defineConsent, defineAccounts, defineFunds, definePayment, defineFlow, defineToken,
];

export function createProgram(io: Io): Command {
  const program = new Command('obtpp')
    .description('Open-banking reference TPP and conformance harness.\nDrives consent, PSU authorisation (headless Chromium), AIS, funds confirmation and payments end to end, and judges the bank against the specification.')
    .version(version(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: () => undefined, // printed once by runCli as one line
    })
    .addHelpText('after', `
Exit codes: 0 success / conformant, 1 non-conformant (or the bank refused), 2 usage or profile error, 3 the harness could not run.

Examples:
  $ obtpp conform                       certify the embedded sandbox bank, variants A and B
  $ obtpp conform --profile mybank.yaml certify your bank
  $ obtpp sandbox --write-profile sb.yaml   run the sandbox bank for manual use
  $ obtpp profile check mybank.yaml     validate a profile, secrets masked
  $ obtpp consent create ais -p sb.yaml && obtpp consent authorise -p sb.yaml && obtpp accounts -p sb.yaml
  $ obtpp flow cof -p sb.yaml --json    a whole funds-confirmation journey, one JSON document`);
  program.exitOverride();
  for (const define of definitions) define(program, io);
  // Apply the same error handling to every subcommand.
  const visit = (cmd: Command) => {
    cmd.exitOverride();
    cmd.configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s), outputError: () => undefined });
    cmd.commands.forEach(visit);
  };
  program.commands.forEach(visit);
  return program;
}


export async function runCli(argv: string[], io: Io): Promise<number> {
  const program = createProgram(io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return io.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return 0;
      if (error.code === 'commander.executeSubCommandAsync') return io.exitCode;
      const text = error.message.replace(/^error:\s*/i, '').split('\n')[0];
      io.stderr.write(`obtpp: ${text} (see obtpp --help)\n`);
      return ExitCode.usage;
    }
    if (error instanceof ProfileError) {
      // One problem per line, each `profile <file>: <json-path>: <what was expected>`, so they can be grepped.
      io.stderr.write(error.message + '\n');
      if (error.hint) io.stderr.write(`obtpp: ${error.hint}\n`);
    } else io.stderr.write(`obtpp: ${oneLine(error)}\n`);
    if (error instanceof ObtppError) {
      if (io.env.OBTPP_DEBUG && error.cause) io.stderr.write(String((error.cause as Error).stack ?? error.cause) + '\n');
      return error.exitCode;
    }
    if (io.env.OBTPP_DEBUG) io.stderr.write(String((error as Error)?.stack) + '\n');
    return ExitCode.cannotRun;
  }
}
