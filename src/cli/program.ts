import { Command, CommanderError, Help } from 'commander';
import { ObtppError, ExitCode, ProfileError, UsageError, oneLine } from '../errors.ts';
import type { Io } from './io.ts';
import { version } from './version.ts';
import { forTerminal } from './terminal.ts';
import { HEADS, type HeadName } from './heads.ts';

type Define = (program: Command, io: Io) => void;

/**
 * Each module of command definitions (light: options and help only; actions load lazily) and the
 * top-level commands it defines, in the order of HEADS.
 */
const DEFINITIONS: ReadonlyArray<readonly [names: readonly HeadName[], load: () => Promise<Define>]> = [
  [['conform'], async () => (await import('./define/conform.ts')).defineConform],
  [['profile'], async () => (await import('./define/profile.ts')).defineProfile],
  [['sandbox'], async () => (await import('./define/sandbox.ts')).defineSandbox],
  [['consent'], async () => (await import('./define/consent.ts')).defineConsent],
  [['accounts', 'balances', 'transactions', 'transaction'], async () => (await import('./define/accounts.ts')).defineAccounts],
  [['ais'], async () => (await import('./define/ais.ts')).defineAis],
  [['funds'], async () => (await import('./define/funds.ts')).defineFunds],
  [['payment'], async () => (await import('./define/payment.ts')).definePayment],
  [['basket'], async () => (await import('./define/basket.ts')).defineBasket],
  [['pay'], async () => (await import('./define/pay.ts')).definePay],
  [['vrp'], async () => (await import('./define/vrp.ts')).defineVrp],
  [['flow'], async () => (await import('./define/flow.ts')).defineFlow],
  [['token'], async () => (await import('./define/token.ts')).defineToken],
  [['verify'], async () => (await import('./define/verify.ts')).defineVerify],
  [['diff'], async () => (await import('./define/diff.ts')).defineDiff],
  [['register'], async () => (await import('./define/register.ts')).defineRegister],
  [['rules'], async () => (await import('./define/rules.ts')).defineRules],
];

/**
 * The top-level command `argv` invokes (`obtpp <command> …`, `obtpp help <command>`), if any. The
 * program's own options (-V, -h) take no value, so it is the first operand.
 */
function invokedCommand(argv: readonly string[]): string | undefined {
  const operands = argv.filter((a) => !a.startsWith('-'));
  return operands[0] === 'help' ? operands[1] : operands[0];
}

/** The subcommand whose parse failed last, per program. */
const failing = new WeakMap<Command, Command>();

/**
 * The program. Given the command line (`argv`), only the command it invokes is defined in full, and
 * the others are their heads (HEADS: name, the top-level help's line), which is all the top-level
 * help, its suggestions and its usage errors need; without it, every command is defined in full.
 */
export async function createProgram(io: Io, argv?: readonly string[]): Promise<Command> {
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
  const invoked = argv && invokedCommand(argv);
  for (const [names, load] of DEFINITIONS) if (!argv || names.some((n) => n === invoked)) (await load())(program, io);
  const heads = new Map<Command, string>();
  for (const [name, head] of Object.entries(HEADS)) {
    if (!program.commands.some((c) => c.name() === name)) heads.set(program.command(name).description(head.description), head.term);
  }
  if (heads.size > 0) {
    const order: string[] = Object.keys(HEADS);
    (program.commands as Command[]).sort((a, b) => order.indexOf(a.name()) - order.indexOf(b.name()));
    // A head has no options or arguments of its own: its line is the one its definition would make.
    program.configureHelp({ subcommandTerm(this: Help, cmd: Command) { return heads.get(cmd) ?? Help.prototype.subcommandTerm.call(this, cmd); } });
  }
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
  const program = await createProgram(io, argv);
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
