/**
 * Issue 25, item 5: writers of the session state file are serialised. Forty processes each add a
 * consent to one state file at the same instant (StateFile.update, the function every CLI command
 * writes the state through; the built one in dist/, as the CLI runs it: build first): all forty
 * are there afterwards. A lock left by a crashed command
 * (stale) does not block the next one; the file stays 0600.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from '../helpers/obtpp.ts';
import { StateFile } from '../../src/session/state.ts';

const WRITERS = 40;
let dir: string;
let worker: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'obtpp-state-lock-'));
  worker = join(dir, 'writer.mjs');
  // One writer: says it is ready, waits for the word to go (so that all forty write at the same
  // instant, however long the machine took to start them), then adds its consent.
  await writeFile(worker, `
    import { StateFile } from ${JSON.stringify(pathToFileURL(join(root, 'dist/src/session/state.js')).href)};
    const [path, id] = process.argv.slice(2);
    process.stdout.write('ready\\n');
    await new Promise((r) => process.stdin.once('data', r));
    process.stdin.destroy();
    await new StateFile(path).update((doc) => {
      const ps = (doc.profiles.k ??= { profile: 'p', baseUrl: 'b', clientId: 'c', variant: 'A', current: {}, consents: {}, tokens: {}, clientCredentials: {} });
      ps.consents[id] = { id, fn: 'ais', status: 'AwaitingAuthorisation', createdAt: new Date().toISOString() };
    });
  `);
});

after(() => rm(dir, { recursive: true, force: true }));

/** A writer process, started: `ready` resolves once it waits for the word; `go()` gives it; `exit` its end. */
function writer(args: string[]) {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exit = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    void exit.then((r) => reject(new Error(`a writer exited before it was ready: ${r.stderr}`)));
  });
  return { ready, exit, go: () => child.stdin.end('go\n') };
}

test(`${WRITERS} processes writing the state at once lose nothing`, async () => {
  const path = join(dir, 'state.json');
  const writers = Array.from({ length: WRITERS }, (_, i) => writer([worker, path, `consent-${i}`]));
  await Promise.all(writers.map((w) => w.ready));
  for (const w of writers) w.go();
  const runs = await Promise.all(writers.map((w) => w.exit));
  for (const r of runs) assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(await readFile(path, 'utf8'));
  assert.equal(Object.keys(doc.profiles.k.consents).length, WRITERS);
  assert.equal((await stat(path)).mode & 0o777, 0o600);
});

test('a lock left by a crashed command is taken over once stale; a fresh one is waited for', async () => {
  const path = join(dir, 'crashed.json');
  const lock = `${path}.lock`;
  await mkdir(lock);
  const old = new Date(Date.now() - 60_000);
  await utimes(lock, old, old);
  const started = Date.now();
  await new StateFile(path).update((doc) => void (doc.profiles.x = {} as never));
  assert.ok(Date.now() - started < 2_000);
  assert.ok(JSON.parse(await readFile(path, 'utf8')).profiles.x);
  // A held lock (fresh) makes the writer wait for its release, not write past it.
  await mkdir(lock);
  let wrote = false;
  const writing = new StateFile(path).update((doc) => void (wrote = true, doc.profiles.y = {} as never));
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(wrote, false);
  await rm(lock, { recursive: true });
  await writing;
  assert.ok(JSON.parse(await readFile(path, 'utf8')).profiles.y);
});
