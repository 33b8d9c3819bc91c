// The program a run builds defines in full only the command it invokes (src/cli/program.ts); every
// other top-level command is its head (src/cli/heads.ts). Held here to the program with every
// command defined: the heads are its commands, in its order, each with its line; the top-level
// help and each command's own help are the same, byte for byte, whichever command a run defines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { Help, type Command } from 'commander';
import { createProgram, runCli } from '../../src/cli/program.ts';
import { HEADS } from '../../src/cli/heads.ts';
import type { Io } from '../../src/cli/io.ts';

const io = (): Io & { out: () => string; err: () => string } => {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  return { stdout, stderr, env: {}, cwd: process.cwd(), color: false, interactive: false, exitCode: 0, out: () => out, err: () => err };
};

/** The help of `path` (a command's names from the top) in `program`, at a fixed width. */
function helpOf(program: Command, path: string[]): string {
  let cmd = program;
  for (const name of path) cmd = cmd.commands.find((c) => c.name() === name)!;
  cmd.configureOutput({ getOutHelpWidth: () => 100, getErrHelpWidth: () => 100 });
  return cmd.helpInformation();
}

/** Every command's path under `cmd`, subcommands included. */
function paths(cmd: Command, prefix: string[] = []): string[][] {
  return cmd.commands.flatMap((c) => [[...prefix, c.name()], ...paths(c, [...prefix, c.name()])]);
}

const full = await createProgram(io());

test('the heads are the program\'s top-level commands, in its order, each with the line its definition makes', () => {
  const help = new Help();
  assert.deepEqual(full.commands.map((c) => [c.name(), help.subcommandTerm(c), c.description()]), Object.entries(HEADS).map(([name, h]) => [name, h.term, h.description]));
});

test('a run that invokes no command defines none in full, and its top-level help is the full program\'s', async () => {
  for (const argv of [['--help'], [], ['-V'], ['help'], ['no-such-command']]) {
    const program = await createProgram(io(), argv);
    assert.ok(program.commands.every((c) => c.commands.length === 0 && c.options.length === 0), `${JSON.stringify(argv)}: heads only`);
    assert.equal(helpOf(program, []), helpOf(full, []), JSON.stringify(argv));
  }
});

test('a run defines in full the command it invokes: its own help and every subcommand\'s, and the top-level help, are the full program\'s', async () => {
  for (const name of Object.keys(HEADS)) {
    for (const argv of [[name, '--help'], ['help', name]]) {
      const program = await createProgram(io(), argv);
      assert.equal(helpOf(program, []), helpOf(full, []), `${argv.join(' ')}: the top-level help`);
      const own = paths(full).filter((p) => p[0] === name);
      for (const p of own) assert.equal(helpOf(program, p), helpOf(full, p), `${argv.join(' ')}: the help of ${p.join(' ')}`);
    }
  }
});

test('the top-level help and its usage errors, through runCli: as before, one line each', async () => {
  const help = io();
  assert.equal(await runCli(['--help'], help), 0);
  assert.match(help.out(), /^Usage: obtpp \[options\] \[command\]\n/);
  for (const [name, h] of Object.entries(HEADS)) assert.ok(help.out().includes(`  ${h.term} `) && help.out().includes(h.description.slice(0, 40)), `${name}'s line`);
  const none = io();
  assert.equal(await runCli([], none), 2);
  assert.match(none.err(), /^obtpp: a command is needed \(conform, profile, sandbox, .*, rules\); see obtpp --help\n$/);
  const near = io();
  assert.equal(await runCli(['conform2'], near), 2);
  assert.match(near.err(), /^obtpp: unknown command 'conform2' \(did you mean conform\?\)/);
});
