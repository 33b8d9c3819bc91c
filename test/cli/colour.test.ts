// Issue 29.3: NO_COLOR, FORCE_COLOR, TERM=dumb and output that is not a terminal, through the real
// binary (build first). A terminal is a real pty from util-linux's `script`; the bank is a sandbox
// on 127.0.0.1 started once. Every byte printed is scanned for ESC: colour appears exactly where the
// policy (src/cli/io.ts, colourWanted) says, and nowhere else.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { colourWanted } from '../../src/cli/io.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = join(root, 'dist', 'src', 'cli', 'main.js');
const ESC = '\u001b';

let script: string | undefined;
try {
  script = execFileSync('sh', ['-c', 'command -v script'], { encoding: 'utf8' }).trim() || undefined;
} catch {
  script = undefined;
}
const noPty = script ? false : 'util-linux script(1) is not installed: no pty to test on';

let sb: Sandbox;
let dir: string;

before(async () => {
  sb = await startSandbox({ quiet: true });
  dir = await mkdtemp(join(tmpdir(), 'obtpp-colour-'));
  await writeFile(join(dir, 'bank.json'), JSON.stringify(sb.profile('all')), { mode: 0o600 });
});

after(async () => {
  await sb?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

type Env = Record<string, string | undefined>;

/** The environment of a run: none of the caller's colour or CI settings leak in. */
function envOf(extra: Env): Record<string, string> {
  const base: Env = { PATH: process.env.PATH, HOME: dir, TERM: 'xterm-256color', OBTPP_PROFILE: join(dir, 'bank.json'), OBTPP_STATE: join(dir, 'state.json'), ...extra };
  return Object.fromEntries(Object.entries(base).filter(([, v]) => v !== undefined)) as Record<string, string>;
}

/** obtpp with stdout and stderr as pipes. */
function piped(args: string[], extra: Env = {}): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: dir, env: envOf(extra), timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, out: stdout + stderr });
    });
  });
}

/** obtpp on a pty (stdout and stderr both the terminal), through script(1). */
function onTerminal(args: string[], extra: Env = {}): Promise<{ code: number; out: string }> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, bin, ...args].map(quote).join(' ');
  return new Promise((resolve) => {
    execFile(script!, ['-qec', command, '/dev/null'], { cwd: dir, env: envOf(extra), timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, out: stdout });
    });
  });
}

const escapes = (text: string) => text.split(ESC).length - 1;

test('the policy: NO_COLOR wins, FORCE_COLOR forces, else both streams terminals and TERM not dumb', () => {
  assert.equal(colourWanted({}, true, true), true);
  assert.equal(colourWanted({}, true, false), false, 'stderr redirected: no colour on either stream');
  assert.equal(colourWanted({}, false, true), false, 'stdout redirected');
  assert.equal(colourWanted({ TERM: 'dumb' }, true, true), false);
  assert.equal(colourWanted({ NO_COLOR: '1' }, true, true), false);
  assert.equal(colourWanted({ NO_COLOR: '' }, true, true), true, 'an empty NO_COLOR is not set');
  assert.equal(colourWanted({ FORCE_COLOR: '1' }, false, false), true);
  assert.equal(colourWanted({ FORCE_COLOR: 'true', TERM: 'dumb' }, false, false), true);
  assert.equal(colourWanted({ FORCE_COLOR: '0' }, true, true), false);
  assert.equal(colourWanted({ FORCE_COLOR: 'false' }, true, true), false);
  assert.equal(colourWanted({ FORCE_COLOR: '1', NO_COLOR: '1' }, false, false), false);
});

test('a colourful command: colour on a terminal and with FORCE_COLOR, none otherwise', { skip: noPty }, async () => {
  const create = ['consent', 'create', 'ais'];
  // Side by side: each is a process start, and the policy's other cases are checked above.
  const [terminal, forced, ...plain] = await Promise.all([
    onTerminal(create), piped(create, { FORCE_COLOR: '1' }),
    piped(create), onTerminal(create, { NO_COLOR: '1' }), onTerminal(create, { TERM: 'dumb' }),
  ]);
  assert.equal(terminal!.code, 0, terminal!.out);
  assert.ok(escapes(terminal!.out) > 0, `a terminal gets colour (the control: the command does paint): ${JSON.stringify(terminal!.out)}`);
  assert.equal(forced!.code, 0, forced!.out);
  assert.ok(escapes(forced!.out) > 0, `FORCE_COLOR colours even a pipe: ${JSON.stringify(forced!.out)}`);
  plain.forEach((r, i) => {
    const name = ['a pipe', 'NO_COLOR on a terminal', 'TERM=dumb on a terminal'][i];
    assert.equal(r.code, 0, `${name}: ${r.out}`);
    assert.match(r.out, /created account-access consent/, name);
    assert.equal(escapes(r.out), 0, `${name}: ${JSON.stringify(r.out)}`);
  });
});

test('TERM=dumb on a terminal: no ESC from help, a table, an error, or a scoped conform', { skip: noPty }, async () => {
  const runs = [
    ['--help'], ['consent', 'list'], ['accounts', '--consent', 'no-such-consent'],
    ['conform', '--profile', 'bank.json', '--variant', 'A', '--tags', '@AIS-01', '--report-dir', join(dir, 'r')],
  ];
  const results = await Promise.all(runs.map((args) => onTerminal(args, { TERM: 'dumb' })));
  results.forEach((r, i) => {
    const args = runs[i]!.join(' ');
    assert.ok(r.out.trim().length > 0, `${args} printed something`);
    assert.equal(escapes(r.out), 0, `${args}: ${JSON.stringify(r.out.slice(0, 2000))}`);
  });
  assert.match(results[3]!.out, /CONFORMANT/, 'the conform run got as far as its table');
});
