import { Command, CommanderError } from 'commander';
import { ObtppError, ExitCode, ProfileError, UsageError, oneLine } from '../errors.ts';
import type { Io } from './io.ts';
import { version } from './version.ts';
import { forTerminal } from './terminal.ts';
import { defineProfile } from './define/profile.ts';
import { defineConform } from './define/conform.ts';
import { defineSandbox } from './define/sandbox.ts';
import { defineConsent } from './define/consent.ts';
import { defineAccounts } from './define/accounts.ts';
import { defineAis } from './define/ais.ts';
import { defineFunds } from './define/funds.ts';
import { definePayment } from './define/payment.ts';
import { defineFlow } from './define/flow.ts';
import { defineToken } from './define/token.ts';
import { defineVerify } from './define/verify.ts';
import { defineDiff } from './define/diff.ts';
import { defineRegister } from './define/register.ts';
import { defineVrp } from './define/vrp.ts';
import { definePay } from './define/pay.ts';
import { defineRules } from './define/rules.ts';
import { defineBasket } from './define/basket.ts';

/** Every command's definition (light modules: options and help only; actions load lazily). */
const definitions: Array<(program: Command, io: Io) => void> = [
  defineConform, defineProfile, defineSandbox,
  defineConsent, defineAccounts, defineAis, defineFunds, definePayment, defineBasket, definePay, defineVrp, defineFlow, defineToken,
  defineVerify, defineDiff, defineRegister, defineRules,
];

/** The subcommand whose parse failed last, per program. */
const failing = new WeakMap<Command, Command>();

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
    // commander reports a usage error through the command that found it: remember which, so
    // that the one line runCli prints points to that command's own --help.
    cmd.configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s), outputError: () => void failing.set(program, cmd) });
    cmd.commands.forEach(visit);
  };
  program.commands.forEach(visit);
  requireSubcommand(program);
  return program;
}

/**
 * A command that only groups others (`obtpp`, `obtpp consent`, `obtpp consent create`) is a usage
 * error without one of them: one line pointing to that command's own --help, exit 2 — not its
 * help on stderr with exit 0.
 */
function requireSubcommand(cmd: Command): void {
  cmd.commands.forEach(requireSubcommand);
  if (cmd.commands.length === 0 || (cmd as unknown as { _actionHandler?: unknown })._actionHandler) return;
  const path = commandPath(cmd);
  const names = cmd.commands.map((c) => c.name());
  // An action handler would switch off commander's implicit `help [command]`: keep it.
  cmd.helpCommand(true).allowExcessArguments(true).action((...args: unknown[]) => {
    const operands = (args.at(-1) as Command).args;
    const sub = path.replace(/^obtpp ?/, '');
    const list = `(${names.join(', ')}); see ${path} --help`;
    if (operands.length === 0) throw new UsageError(sub ? `${sub} needs a subcommand ${list}` : `a command is needed ${list}`);
    const near = names.find((n) => distance(n, operands[0]) <= 2 || n.startsWith(operands[0]));
    throw new UsageError(`unknown command '${[sub, operands[0]].filter(Boolean).join(' ')}'${near ? ` (did you mean ${near}?)` : ''} ${list}`);
  });
}

/** Levenshtein distance, for "did you mean". */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_v, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
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
      // `option '--parallel <n>' argument '99' is invalid. --parallel takes …`: our own reason says it all.
      const text = error.message.replace(/^error:\s*/i, '').split('\n')[0].replace(/^option '(--[\w-]+)[^']*' argument '[^']*' is invalid\. (?=\1)/, '');
      const where = failing.get(program);
      io.stderr.write(`obtpp: ${text} (see ${where ? commandPath(where) : 'obtpp'} --help)\n`);
      return ExitCode.usage;
    }
    // An error's text may quote a bank or a file: shown escaped (one line, no control sequence).
    if (error instanceof ProfileError) {
      // One problem per line, each `profile <file>: <json-path>: <what was expected>`, so they can be grepped.
      io.stderr.write(error.message.split('\n').map((l) => forTerminal(l, 'inline')).join('\n') + '\n');
      if (error.hint) io.stderr.write(forTerminal(`obtpp: ${error.hint}`, 'inline') + '\n');
    } else io.stderr.write(forTerminal(`obtpp: ${oneLine(error)}`, 'inline') + '\n');
    if (error instanceof ObtppError) {
      if (io.env.OBTPP_DEBUG && error.cause) io.stderr.write(forTerminal(String((error.cause as Error).stack ?? error.cause), 'block') + '\n');
      return error.exitCode;
    }
    if (io.env.OBTPP_DEBUG) io.stderr.write(forTerminal(String((error as Error)?.stack), 'block') + '\n');
    return ExitCode.cannotRun;
  }
}
