// A toy standard (test/standards/toy/: its module, features and steps) registered with one line
// is accepted, with no other change, by the profile loader, the CLI (`profile check`, `conform`)
// and the runner, which judge its one rule against a tiny bank on loopback; a profile of another
// standard carrying its field is told whose field it is. Everything runs through the compiled
// library (dist/), as the CLI and the runner's step definitions do: build first.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { toy } from './toy/index.ts';

const dist = (p: string) => new URL(`../../dist/src/${p}`, import.meta.url).href;

let server: Server;
let dir: string;
let profileFile: string;
let greeting = 'hello';

/** The toy bank: GET /greeting answers its greeting. */
before(async () => {
  server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/greeting') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ greeting }));
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  dir = await mkdtemp(join(tmpdir(), 'obtpp-toy-'));
  profileFile = join(dir, 'toy.yaml');
  await writeFile(profileFile, [
    'name: toy bank',
    'dialect: toy',
    'greeting: hello',
    'variants: [A]',
    `baseUrl: http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    'psu: { username: u, password: p4ssw0rd, driver: { kind: manual } }',
    '',
  ].join('\n'));
  // The one registry line.
  const { registerStandard } = await import(dist('standards/registry.js'));
  registerStandard(toy);
});

after(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

/** `obtpp …args` in this process, through the compiled CLI: what it printed and its exit code. */
async function obtpp(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { runCli } = await import(dist('cli/program.js'));
  let stdout = '';
  let stderr = '';
  const sink = (write: (s: string) => void) => new Writable({ write: (chunk, _e, cb) => { write(String(chunk)); cb(); } });
  const io = {
    stdout: sink((s) => (stdout += s)), stderr: sink((s) => (stderr += s)),
    env: { ...process.env, NO_COLOR: '1', CI: 'true' }, cwd: dir, color: false, interactive: false, exitCode: 0,
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

test('the profile loader accepts a toy profile, and refuses its field on a profile of another standard', async () => {
  const { loadProfile, profileFromObject } = await import(dist('profile/load.js'));
  const profile = await loadProfile(profileFile, { env: {}, cwd: dir });
  assert.equal(profile.dialect, 'toy');
  assert.equal(profile.greeting, 'hello');
  assert.equal(profile.auth.absent, true, 'a toy bank goes without an authorisation server');
  await assert.rejects(profileFromObject({
    name: 'uk', variants: ['A'], baseUrl: 'https://bank.example', greeting: 'hi',
    auth: { issuer: 'https://bank.example', clientId: 'c', clientAuth: { method: 'client_secret_basic', secret: 's3cret' }, redirectUri: 'https://tpp.example/cb' },
    psu: { username: 'u', password: 'p', driver: { kind: 'manual' } },
  }, { source: 'test', env: {} }), /\$\.greeting: only for dialect toy \(this profile's dialect is obie\)/);
});

test('obtpp profile check prints the toy profile', async () => {
  const run = await obtpp(['profile', 'check', profileFile]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /valid/);
  assert.match(run.stdout, /^dialect: toy$/m);
  assert.match(run.stdout, /^greeting: hello$/m);
});

test('obtpp conform judges the toy bank by the toy\'s rule, then catches a wrong greeting', async () => {
  const reportDir = join(dir, 'report');
  const run = await obtpp(['conform', '--profile', profileFile, '--report-dir', reportDir, '--json']);
  assert.equal(run.code, 0, run.stderr + run.stdout.slice(0, 2000));
  const summary = JSON.parse(await readFile(join(reportDir, 'summary.json'), 'utf8'));
  assert.equal(summary.verdict, 'pass');
  assert.deepEqual(summary.standard, { dialect: 'toy', name: 'Toy API', version: '1.0' });
  const rules = summary.variants[0].rules;
  assert.equal(rules.find((r: { id: string }) => r.id === 'TOY-01')?.status, 'passed');
  // The base standard's rules are listed too, as another dialect's.
  assert.match(rules.find((r: { id: string }) => r.id === 'AIS-01')?.reason ?? '', /^not part of the toy dialect \(a rule of obie only\)/);

  greeting = 'goodbye';
  const failed = await obtpp(['conform', '--profile', profileFile, '--report-dir', reportDir, '--json']);
  assert.equal(failed.code, 1, failed.stderr);
  const again = JSON.parse(await readFile(join(reportDir, 'summary.json'), 'utf8'));
  const rule = again.variants[0].rules.find((r: { id: string }) => r.id === 'TOY-01');
  assert.equal(rule.status, 'failed');
  assert.match(rule.failures[0].message, /TOY-01: expected 200 with greeting "hello", got 200/);
});
