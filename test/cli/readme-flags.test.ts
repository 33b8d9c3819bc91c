// The README and the docs do not lie about the CLI: every `obtpp …` command line they show (code
// blocks and inline code, in README.md, docs/*.md and bench/README.md) names a command that exists
// and only flags that command's parser accepts, and the flags docs/cli.md promises "every command"
// and "a command that works on one consent" take are there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Command, Option } from 'commander';
import { createProgram } from '../../src/cli/program.ts';
import type { Io } from '../../src/cli/io.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
/** The terminal client's page: the TPP engineer's sessions, every command (moved there from the README). */
const cliPage = readFileSync(join(root, 'docs', 'cli.md'), 'utf8');
/** Every page that shows obtpp command lines: the README, each docs page, the benchmarks' page. */
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`), 'bench/README.md'];
const texts = new Map(pages.map((p) => [p, readFileSync(join(root, p), 'utf8')]));
const corpus = [...texts.values()].join('\n');

const io: Io = { stdout: new PassThrough(), stderr: new PassThrough(), env: {}, cwd: root, color: false, interactive: false, exitCode: 0 };
const program = await createProgram(io);

/** Shell words of one simple command: quotes kept together, `[`, `]` and `…` of synopses dropped. */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/"[^"]*"|'[^']*'|\S+/g)) {
    const w = m[0].replace(/^\[+|\]+$/g, '').replace(/…$/, '');
    if (w) out.push(w);
  }
  return out;
}

/** Every `obtpp …` invocation of a shell text: comments cut, continuations joined, split at `&&`, `|`, `;`, `$(`. */
export function invocations(shell: string): string[] {
  const joined = shell.replace(/\\\n\s*/g, ' ');
  const found: string[] = [];
  for (const raw of joined.split('\n')) {
    const line = raw.replace(/(^|\s)#.*$/, '');
    for (const part of line.split(/&&|\|\||\||;|\$\(|\)|`/)) {
      const t = part.trim().replace(/^(npx\s+)/, '').replace(/^[A-Z_]+=\S*\s+/, '');
      if (/^obtpp(\s|$)/.test(t)) found.push(t);
    }
  }
  return found;
}

function find(cmd: Command, name: string): Command | undefined {
  return cmd.commands.find((c) => c.name() === name || c.aliases().includes(name));
}

/** Resolves the words to a command; returns it and the words after the command path. */
function resolveCommand(ws: string[]): { cmd: Command; path: string; rest: string[] } {
  let cmd = program;
  let i = 1;
  while (i < ws.length && find(cmd, ws[i])) cmd = find(cmd, ws[i++])!;
  const path = ['obtpp', ...ws.slice(1, i)].join(' ');
  // A group with a default subcommand (`obtpp register` = `obtpp register create`) runs it, as commander does.
  const fallback = (cmd as unknown as { _defaultCommandName?: string })._defaultCommandName;
  if (fallback && find(cmd, fallback) && !ws.slice(i).some((w) => ['-h', '--help'].includes(w))) cmd = find(cmd, fallback)!;
  return { cmd, path, rest: ws.slice(i) };
}

function optionOf(cmd: Command, flag: string): Option | undefined {
  if (['-h', '--help'].includes(flag)) return { required: false, optional: false } as Option;
  if (cmd === program && ['-V', '--version'].includes(flag)) return { required: false, optional: false } as Option;
  return cmd.options.find((o) => o.long === flag || o.short === flag);
}

/** Problems of one README line: an unknown command, or a flag its command does not take. */
function problems(line: string, mention = false): string[] {
  const ws = words(line);
  const { cmd, path, rest } = resolveCommand(ws);
  const out: string[] = [];
  // Prose may name a command group (`obtpp consent`); a command line must run something.
  if (mention && rest.length === 0) return out;
  if (cmd.commands.length > 0 && !rest.some((w) => ['-h', '--help', '-V', '--version'].includes(w))) {
    out.push(`${line}: "${path}" needs a subcommand (${cmd.commands.map((c) => c.name()).join(', ')}), got "${rest[0] ?? ''}"`);
    return out;
  }
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i];
    if (!/^-{1,2}[A-Za-z]/.test(w)) continue;
    const flag = w.split('=')[0];
    const option = optionOf(cmd, flag);
    if (!option) {
      out.push(`${line}: ${path} does not take ${flag}`);
      continue;
    }
    if ((option.required || option.optional) && !w.includes('=')) i++; // its value, even one like -30d
  }
  return out;
}

// Every fenced block is paired (a yaml or json block too), and only the shell ones are read as commands.
function shellBlocks(text: string): string[] {
  return [...text.matchAll(/```([\w-]*)\n([\s\S]*?)```/g)].filter((m) => ['', 'sh', 'bash', 'shell'].includes(m[1]!)).map((m) => m[2]!);
}
function inlineCommands(text: string): string[] {
  return [...text.replace(/```[\s\S]*?```/g, '').matchAll(/`(obtpp [^`]+)`/g)].map((m) => m[1]!);
}

test('the README and the docs show many obtpp command lines (the extractor finds them)', () => {
  const all = [...shellBlocks(corpus).flatMap(invocations), ...inlineCommands(corpus).flatMap(invocations)];
  assert.ok(all.length >= 30, `found only ${all.length}`);
  const onCli = [...shellBlocks(cliPage).flatMap(invocations), ...inlineCommands(cliPage).flatMap(invocations)];
  assert.ok(onCli.includes('obtpp token clear --consent ID'), 'a code-block line of docs/cli.md is found');
  assert.ok(onCli.includes('obtpp consent delete --consent ID'), 'an inline example of docs/cli.md is found');
  // The README keeps an example per audience: its own command lines are checked below too.
  const onReadme = shellBlocks(readme).flatMap(invocations);
  for (const line of ['obtpp conform --profile mybank.yaml --report-dir reports/mybank', 'obtpp consent authorise']) assert.ok(onReadme.includes(line), `the README shows ${line}`);
});

test('every obtpp command line in the README and the docs names a real command and only flags it accepts', () => {
  // docs/summary.md quotes obtpp's own messages in inline code (`obtpp itself failed in this step …`):
  // its code blocks are command lines, its inline code is not.
  const wrong = [...texts].flatMap(([page, text]) => [
    ...shellBlocks(text).flatMap(invocations).flatMap((l) => problems(l)),
    ...(page === 'docs/summary.md' ? [] : inlineCommands(text).flatMap(invocations).flatMap((l) => problems(l, true))),
  ].map((p) => `${page}: ${p}`));
  assert.deepEqual(wrong, []);
});

test('the checker catches a README that lies', () => {
  assert.deepEqual(problems('obtpp consent delete --consent ID'), []);
  assert.deepEqual(problems('obtpp transactions alice-current --from -30d --to now'), []);
  assert.match(problems('obtpp consent delete --bogus')[0], /obtpp consent delete does not take --bogus/);
  assert.match(problems('obtpp conform --verbosity')[0], /does not take --verbosity/);
  assert.match(problems('obtpp consent')[0], /needs a subcommand/);
  assert.deepEqual(invocations('obtpp a && obtpp b | jq . # obtpp c\nx $(obtpp d --json)'), ['obtpp a', 'obtpp b', 'obtpp d --json']);
});

/** The leaf commands the TPP section of docs/cli.md shows, plus conform. */
function tppCommands(): Command[] {
  const start = cliPage.indexOf('## For a TPP engineer');
  assert.ok(start >= 0, 'docs/cli.md has its TPP section');
  const end = cliPage.indexOf('\n## ', start + 5);
  const section = cliPage.slice(start, end < 0 ? undefined : end);
  const shown = [...section.matchAll(/```(?:sh)?\n([\s\S]*?)```/g)].flatMap((m) => invocations(m[1])).map((l) => resolveCommand(words(l)).cmd);
  const set = new Set(shown.filter((c) => c.name() !== 'sandbox'));
  set.add(find(program, 'conform')!);
  // the commands the prose names too
  for (const [group, subs] of [['token', ['show', 'refresh', 'clear']], ['consent', ['create', 'authorise', 'get', 'delete', 'list', 'forget']]] as const) {
    for (const sub of subs) {
      const c = find(find(program, group)!, sub)!;
      for (const leaf of c.commands.length ? c.commands : [c]) set.add(leaf);
    }
  }
  return [...set];
}

test('"every command below, and conform, takes --profile, --variant, --json, --verbose and --state" is true', () => {
  const sentence = /Every command below, and `conform`, takes ([\s\S]*?)\. Every command's/.exec(cliPage);
  assert.ok(sentence, 'docs/cli.md states which flags every command takes');
  const flags = [...sentence![1].matchAll(/`(--[a-z-]+)/g)].map((m) => m[1]);
  assert.deepEqual(flags, ['--profile', '--variant', '--json', '--verbose', '--state']);
  const commands = tppCommands();
  assert.ok(commands.length >= 20, `only ${commands.length} commands`);
  const missing = commands.flatMap((c) => flags.filter((f) => !optionOf(c, f)).map((f) => `${commandName(c)} lacks ${f}`));
  assert.deepEqual(missing, []);
});

test('the commands docs/cli.md says take --consent ID do', () => {
  const m = /that works on one consent \(([\s\S]*?)\) takes\s+`--consent ID`/.exec(cliPage);
  assert.ok(m, 'docs/cli.md lists the commands that take --consent');
  const names = [...m![1].matchAll(/`([^`]+)`/g)].flatMap((x) => {
    const [head, alts] = x[1].includes(' ') ? [x[1].slice(0, x[1].lastIndexOf(' ')), x[1].slice(x[1].lastIndexOf(' ') + 1)] : ['', x[1]];
    return alts.split('|').map((a) => `obtpp ${head ? head + ' ' : ''}${a}`);
  });
  assert.ok(names.length >= 12, names.join(', '));
  const lacking = names.filter((n) => {
    const { cmd, rest } = resolveCommand(n.split(' '));
    return rest.length > 0 || !optionOf(cmd, '--consent');
  });
  assert.deepEqual(lacking, []);
});

function commandName(c: Command): string {
  const names: string[] = [];
  for (let x: Command | null = c; x; x = x.parent) names.unshift(x.name());
  return names.join(' ');
}

/** Every command of the program (depth first), with its full name (`consent create`). */
function commands(cmd: Command, prefix = ''): Array<{ name: string; cmd: Command }> {
  return cmd.commands.flatMap((c) => {
    const name = `${prefix}${c.name()}`;
    return [{ name, cmd: c }, ...commands(c, `${name} `)];
  });
}

test('the other way round: every flag that --help lists for a command is in the README or the docs', () => {
  const missing: string[] = [];
  for (const { name, cmd } of commands(program)) {
    for (const option of cmd.options as readonly Option[]) {
      if (option.hidden || option.long === '--help') continue;
      const flag = option.long ?? option.short!;
      // Written as `--flag` anywhere in the README or a docs page (a table, a synopsis, a command line).
      if (!new RegExp(`(^|[^\\w-])${flag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'm').test(corpus)) missing.push(`obtpp ${name} ${flag}`);
    }
  }
  assert.deepEqual(missing, [], `flags --help shows and neither the README nor the docs mention:\n${missing.join('\n')}`);
});

test('every rule id of the features is on docs/rules.md', async () => {
  const { readdirSync } = await import('node:fs');
  const rules = readFileSync(join(root, 'docs', 'rules.md'), 'utf8');
  const files = readdirSync(join(root, 'features'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.feature'));
  const ids = new Set(files.flatMap((f) => [...readFileSync(join(root, 'features', f), 'utf8').matchAll(/^\s*Rule:\s*([A-Z]+-\d+)/gm)].map((m) => m[1]!)));
  assert.ok(ids.size >= 40, `the features' rules were found (${ids.size})`);
  assert.deepEqual([...ids].filter((id) => !new RegExp(`\\|\\s*${id}\\s*\\|`).test(rules)), [], 'rule ids without a row on docs/rules.md');
});
