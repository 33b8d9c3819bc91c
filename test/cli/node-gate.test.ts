// Old Node: the bin's first module links and runs on any Node, and below the engines range
// obtpp (and `npm test`) print one line naming the Node needed and how to get it, exit 3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIN_NODE, nodeGate, nodeSatisfies, rerunWithNode24, shellWords } from '../../src/cli/node-gate.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'dist/src/cli/main.js');

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** A node binary on this machine older than the engines range (this machine's /usr/bin/node is 20), if any. */
function oldNode(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node', '/bin/node', '/opt/node/bin/node']) {
    if (!existsSync(candidate)) continue;
    try {
      const version = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim();
      if (!nodeSatisfies(version)) return candidate;
    } catch {
      /* not runnable */
    }
  }
  return undefined;
}

function run(node: string, args: string[], cwd = root, extraEnv: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(node, args, { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...extraEnv }, timeout: 60_000 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 99) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

test('the gate: versions compared by number, the minimum is package.json\'s engines range', () => {
  assert.equal(pkg.engines.node, `>=${MIN_NODE}`);
  assert.equal(nodeSatisfies('v22.19.0'), true);
  assert.equal(nodeSatisfies('v22.18.9'), false);
  assert.equal(nodeSatisfies('v22.100.0'), true);
  assert.equal(nodeSatisfies('v24.0.0'), true);
  assert.equal(nodeSatisfies('v20.20.2'), false);
  assert.equal(nodeSatisfies('v18.0.0'), false);
  assert.equal(nodeSatisfies('v9.99.99', '10.0.0'), false);
  assert.equal(nodeGate('v24.1.0', 'x'), undefined);
  const line = nodeGate('v20.20.2', rerunWithNode24('/p/main.js', ['conform', '--tags', '@a and @b'], {}))!;
  assert.doesNotMatch(line, /\n/);
  assert.match(line, /^obtpp: needs Node\.js 22\.19\.0 or newer, and this is Node\.js 20\.20\.2; /);
  assert.match(line, /`npx -y node@24 \/p\/main\.js conform --tags '@a and @b'`/);
  assert.match(line, /nvm install 24/);
  // Through npx the bin's path is npx's cache: the rerun is npx again, under node@24.
  // (In the project's folder npm sets npm_package_name: the project itself, `-p .`; elsewhere the registry's.)
  const cases = [['/p/main.js', { npm_command: 'exec', npm_package_name: 'obtpp' }, '.'], ['/root/.npm/_npx/1a2b/node_modules/.bin/obtpp', { npm_command: 'exec' }, 'obtpp']] as const;
  for (const [bin, env, from] of cases) {
    const npx = rerunWithNode24(bin, ['conform', '--tags', '@a and @b'], env);
    assert.equal(npx, `npx -y -p node@24 -p ${from} -c 'obtpp conform --tags '\\''@a and @b'\\'''`);
    assert.doesNotMatch(npx, /_npx|main\.js/);
  }
});

test('the bin\'s first module imports only what any Node links, and nothing else before the gate', () => {
  const text = readFileSync(bin, 'utf8');
  const statics = [...text.matchAll(/^import\s+(.+?)\s+from\s+['"]([^'"]+)['"]/gm)].map((m) => `${m[1]} from ${m[2]}`);
  assert.deepEqual(statics, ['* as nodeModule from node:module', '{ nodeGate, rerunWithNode24 } from ./node-gate.js']);
  const gate = readFileSync(join(root, 'dist/src/cli/node-gate.js'), 'utf8');
  assert.doesNotMatch(gate, /^import /m, 'the gate module imports nothing');
  assert.ok(text.indexOf('nodeGate(process.version') < text.indexOf("await import('./io.js')"), 'the gate runs before the CLI is imported');
});

const old = oldNode();

test(`an old Node (${old ?? 'none on this machine'}) running the built bin: one line, exit 3, no stack trace`, { skip: old ? false : 'no Node older than the engines range here' }, async () => {
  for (const args of [['--help'], ['conform'], ['consent', 'create', 'ais', '--profile', 'x y.yaml']]) {
    const r = await run(old!, [bin, ...args]);
    assert.equal(r.code, 3, `obtpp ${args.join(' ')} under ${old}: exit ${r.code}\n${r.stderr}`);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], /^obtpp: needs Node\.js 22\.19\.0 or newer, and this is Node\.js \d+\./);
    assert.ok(lines[0].includes(`npx -y node@24 ${shellWords([bin, ...args])}`), lines[0]);
    assert.doesNotMatch(r.stderr, /SyntaxError|    at /);
  }
  // As `npx obtpp conform` starts it: the hint is npx again under node@24, not a path.
  const npx = await run(old!, [bin, 'conform'], root, { npm_command: 'exec', npm_package_name: 'obtpp' });
  assert.equal(npx.code, 3);
  assert.ok(npx.stderr.includes("`npx -y -p node@24 -p . -c 'obtpp conform'`"), npx.stderr);
  assert.ok(!npx.stderr.includes(bin), npx.stderr);
});

test('npm test explains an old Node before anything else; on this Node it says nothing', { skip: old ? false : 'no Node older than the engines range here' }, async () => {
  assert.match(pkg.scripts.test, /^node scripts\/check-node\.mjs test && /);
  const r = await run(old!, ['scripts/check-node.mjs', 'test']);
  assert.equal(r.code, 3);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, /^npm test: obtpp needs Node\.js 22\.19\.0 or newer, and this is Node\.js \d+\.\d+\.\d+; run `npx -y -p node@24 -c 'npm test'`/);
  const now = await run(process.execPath, ['scripts/check-node.mjs', 'test']);
  assert.deepEqual(now, { code: 0, stdout: '', stderr: '' });
});
