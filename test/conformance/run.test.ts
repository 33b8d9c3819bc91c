// `obtpp conform` as CI meets it (build first; the signals and the terminal through the real binary,
// the rest in a warm worker, which runs a command as its own process would): an empty selection is not
// a pass, a 0×0 terminal gets plain lines, SIGTERM/SIGINT stop a real run cleanly, report dirs
// are checked and cleared, and a bank whose discovery answers 404 or HTML is "could not run".
// Real sandbox, real Chromium, real sockets on 127.0.0.1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { startSandbox } from '../../src/sandbox/index.ts';
import { listenLoopback } from '../helpers/loopback.ts';
import { runObtpp } from '../helpers/obtpp.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = join(root, 'dist', 'src', 'cli', 'main.js');

interface Run { code: number | null; signal?: string | null; stdout: string; stderr: string; ms: number }

/** `obtpp …args` (in a warm worker; the tests of signals and terminals below start the binary). */
async function obtpp(args: string[], options: { cwd?: string; env?: Record<string, string | undefined>; timeoutMs?: number } = {}): Promise<Run> {
  const started = Date.now();
  const run = await runObtpp(args, { cwd: options.cwd, env: options.env, timeoutMs: options.timeoutMs });
  return { ...run, ms: Date.now() - started };
}

const tmp = (name: string) => mkdtemp(join(tmpdir(), `obtpp-run-${name}-`));

// --- 7. An empty run is not a pass -----------------------------------------------------------

test('a --tags that matches nothing is exit 2, names the filter, and starts nothing', async () => {
  const dir = await tmp('typo');
  try {
    const reportDir = join(dir, 'reports');
    const run = await obtpp(['conform', '--tags', '@typo', '--report-dir', reportDir]);
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stdout, '', 'no CONFORMANT table');
    const lines = run.stderr.trim().split('\n');
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0]!, /--tags "@typo" matches no scenario/);
    assert.ok(!existsSync(reportDir), 'no report dir for a run that did not happen');
    assert.ok(run.ms < 20_000, 'checked before the sandbox and the browser start');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a --tags that selects scenarios only of the other variant says so (exit 2)', async () => {
  const run = await obtpp(['conform', '--variant', 'B', '--tags', '@pis']);
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /--tags "@pis" selects no scenario of variant B \(it selects \d+ of variant A\)/);
});

test('a bad tag expression is exit 2 and quotes the user\'s expression, not the internal one', async () => {
  const run = await obtpp(['conform', '--tags', '@ais and']);
  assert.equal(run.code, 2, run.stderr);
  assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
  assert.match(run.stderr, /--tags "@ais and" is not a valid tag expression/);
  assert.doesNotMatch(run.stderr, /@variant-|\(@A and/, 'the internal expression is not shown');
});

// --- 8. No usable terminal ----------------------------------------------------------------------

test('under a 0×0 pseudo-terminal (script, stty cols 0 rows 0) conform finishes with plain, small output', async () => {
  const dir = await tmp('pty');
  try {
    const reportDir = join(dir, 'r');
    const command = `stty cols 0 rows 0; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} conform --tags @AIS-01 --report-dir ${JSON.stringify(reportDir)}`;
    const env: Record<string, string | undefined> = { ...process.env, TERM: 'xterm-256color' };
    delete env.CI;
    delete env.NO_COLOR;
    const started = Date.now();
    const run = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn('script', ['-eqc', command, '/dev/null'], { cwd: root, env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let size = 0;
      const take = (b: Buffer) => {
        size += b.length;
        if (out.length < 256 * 1024) out += b.toString();
        // Before the fix the spinner wrote ~1 MB/s of cursor codes: stop early rather than fill memory.
        if (size > 4 * 1024 * 1024) child.kill('SIGKILL');
      };
      child.stdout.on('data', take);
      child.stderr.on('data', take);
      const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, out: out + `\n[${size} bytes]` });
      });
    });
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(`# conform under a 0x0 pty: ${seconds.toFixed(1)} s, ${run.out.match(/\[(\d+) bytes\]$/)?.[1]} bytes of output\n`);
    const bytes = Number(run.out.match(/\[(\d+) bytes\]$/)?.[1]);
    assert.ok(bytes < 64 * 1024, `small output, got ${bytes} bytes`);
    assert.ok(run.code !== null && [0, 1].includes(run.code), `the run finished (exit ${run.code}):\n${run.out.slice(-2000)}`);
    assert.match(run.out, /\[A\] AIS-01 /, 'progress as plain lines');
    assert.doesNotMatch(run.out, /\x1b\[\d*[AGK]/, 'no cursor movement or line clearing');
    const summary = JSON.parse(await readFile(join(reportDir, 'summary.json'), 'utf8'));
    assert.equal(summary.totals.scenarios.passed + summary.totals.scenarios.failed, 6);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

// --- 9. Interrupted runs ----------------------------------------------------------------------------

/** PIDs of processes (Chromium, the CLI) whose environment carries `mark`. */
async function processesMarked(mark: string): Promise<number[]> {
  const out: number[] = [];
  for (const pid of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(pid)) continue;
    const environ = await readFile(`/proc/${pid}/environ`, 'latin1').catch(() => '');
    if (environ.includes(mark)) out.push(Number(pid));
  }
  return out;
}

async function interruptedRun(signal: 'SIGTERM' | 'SIGINT', when: RegExp, extra: string[] = []) {
  const dir = await tmp(`sig-${signal}`);
  const reportDir = join(dir, 'r');
  const mark = `OBTPP_TEST_MARK=${randomUUID()}`;
  const [key, value] = mark.split('=') as [string, string];
  const child = spawn(process.execPath, [bin, 'conform', '--report-dir', reportDir, ...extra], {
    cwd: root, env: { ...process.env, NO_COLOR: '1', CI: 'true', [key]: value }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let sentAt = 0;
  let atSignal = '';
  child.stdout.on('data', (b) => (stdout += b));
  child.stderr.on('data', (b) => {
    stderr += b;
    if (!sentAt && when.test(stderr)) {
      sentAt = Date.now();
      atSignal = stderr;
      child.kill(signal);
    }
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  clearTimeout(timer);
  return { dir, reportDir, mark, code, stdout, stderr, atSignal, stopMs: Date.now() - sentAt, sentAt };
}

test('SIGTERM mid-run: browser and sandbox stop, summary.json says interrupted, no empty reports, one line, exit 143', async () => {
  const r = await interruptedRun('SIGTERM', /^✓ .*\n/m);
  try {
    process.stdout.write(`# SIGTERM → exit ${r.code} in ${r.stopMs} ms\n`);
    assert.ok(r.sentAt, `a scenario finished before the signal:\n${r.stderr}`);
    assert.equal(r.code, 143, r.stderr);
    assert.ok(r.stopMs < 30_000, `stopped in ${r.stopMs} ms`);
    const after = r.stderr.slice(r.atSignal.length).trim().split('\n').filter((l) => !/^[✓✗-] \[|^    /.test(l));
    assert.equal(after.length, 1, `one line on stderr after the signal:\n${r.stderr.slice(r.atSignal.length)}`);
    assert.match(after[0]!, /^obtpp: interrupted by SIGTERM: \d+ scenarios? had finished/);
    const summary = JSON.parse(await readFile(join(r.reportDir, 'summary.json'), 'utf8'));
    assert.equal(summary.verdict, 'interrupted');
    const ran = summary.totals.scenarios.passed + summary.totals.scenarios.failed;
    assert.ok(ran >= 1, 'what had run is in the summary');
    assert.ok(ran < 60, 'and not the whole suite');
    for (const f of ['junit.xml', 'report.html', 'messages.ndjson']) {
      const info = await stat(join(r.reportDir, f)).catch(() => undefined);
      assert.ok(!info || info.size > 0, `${f} is not left empty`);
    }
    const html = await readFile(join(r.reportDir, 'report.html'), 'utf8').catch(() => undefined);
    if (html !== undefined) assert.match(html, /Interrupted/, 'a report.html, when there is one, says the run was interrupted');
    // Nothing the run started is left: no Chromium, no CLI.
    let left = await processesMarked(r.mark);
    for (let i = 0; i < 20 && left.length; i++) {
      await new Promise((ok) => setTimeout(ok, 250));
      left = await processesMarked(r.mark);
    }
    assert.deepEqual(left, [], 'no process of the run survives it');
  } finally {
    await rm(r.dir, { recursive: true, force: true });
  }
});

test('SIGINT while the run starts: exit 130, an interrupted summary, nothing left running', async () => {
  const r = await interruptedRun('SIGINT', /sandbox bank started/, ['--verbose']);
  try {
    assert.ok(r.sentAt, r.stderr);
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr.trim().split('\n').at(-1)!, /^obtpp: interrupted by SIGINT/);
    const summary = JSON.parse(await readFile(join(r.reportDir, 'summary.json'), 'utf8'));
    assert.equal(summary.verdict, 'interrupted');
    let left = await processesMarked(r.mark);
    for (let i = 0; i < 20 && left.length; i++) {
      await new Promise((ok) => setTimeout(ok, 250));
      left = await processesMarked(r.mark);
    }
    assert.deepEqual(left, []);
  } finally {
    await rm(r.dir, { recursive: true, force: true });
  }
});

// --- 10. Report dirs -----------------------------------------------------------------------------

test('a reused --report-dir keeps none of the earlier run\'s outputs, and keeps the user\'s own files', async () => {
  const dir = await tmp('reuse');
  try {
    const first = await obtpp(['conform', '--variant', 'A', '--tags', '@AIS-01', '--report-dir', dir]);
    assert.ok([0, 1].includes(first.code!), first.stderr);
    // Evidence of the earlier run, and a file of the user's.
    await writeFile(join(dir, 'evidence', 'old-failure.png'), 'old');
    await writeFile(join(dir, 'attestation.jws'), 'old');
    await writeFile(join(dir, 'notes.txt'), 'mine');
    const second = await obtpp(['conform', '--variant', 'B', '--tags', '@AIS-01', '--report-dir', dir]);
    assert.ok([0, 1].includes(second.code!), second.stderr);
    const summary = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8'));
    assert.deepEqual(summary.variants.map((v: any) => v.variant), ['B']);
    assert.ok(!existsSync(join(dir, 'evidence', 'old-failure.png')), 'old evidence removed');
    assert.ok(!existsSync(join(dir, 'attestation.jws')), 'old attestation removed');
    assert.ok(!existsSync(join(dir, 'features', 'A')), 'old variant-A features removed');
    assert.equal(await readFile(join(dir, 'notes.txt'), 'utf8'), 'mine', 'the user\'s file is kept');
    const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
    assert.doesNotMatch(junit, /variant A/, 'junit.xml is the new run\'s');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a non-empty folder that is no obtpp report dir is refused (exit 2) and left untouched', async () => {
  const dir = await tmp('foreign');
  try {
    await mkdir(join(dir, 'features'));
    await writeFile(join(dir, 'features', 'mine.feature'), 'Feature: mine\n');
    await writeFile(join(dir, 'junit.xml'), '<mine/>');
    const run = await obtpp(['conform', '--tags', '@AIS-01', '--report-dir', dir]);
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    assert.match(run.stderr, /is not empty and is not an earlier obtpp report dir/);
    assert.equal(await readFile(join(dir, 'features', 'mine.feature'), 'utf8'), 'Feature: mine\n');
    assert.equal(await readFile(join(dir, 'junit.xml'), 'utf8'), '<mine/>');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a report dir that is a file, or cannot be created, is exit 2 with one line', async () => {
  const dir = await tmp('file');
  try {
    const file = join(dir, 'plain.txt');
    await writeFile(file, 'x');
    const isFile = await obtpp(['conform', '--tags', '@AIS-01', '--report-dir', file]);
    assert.equal(isFile.code, 2, isFile.stderr);
    assert.equal(isFile.stderr.trim().split('\n').length, 1, isFile.stderr);
    assert.match(isFile.stderr, /is a file, not a directory/);
    const under = await obtpp(['conform', '--tags', '@AIS-01', '--report-dir', join(file, 'r')]);
    assert.equal(under.code, 2, under.stderr);
    assert.equal(under.stderr.trim().split('\n').length, 1, under.stderr);
    assert.match(under.stderr, /cannot be created: .*plain\.txt is not a directory/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

// --- 11. Could not run is 3 (and 10: no empty timestamp dir) --------------------------------------

test('a discovery URL answering 404 or HTML is exit 3 with the URL and what came back; conform leaves no timestamp dir', async () => {
  const sb = await startSandbox({ quiet: true });
  const server = createServer((req, res) => {
    if (req.url!.startsWith('/missing')) res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>Not Found</h1></body></html>');
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Bank login portal</title>');
  });
  const { base, close } = await listenLoopback(server);
  const dir = await tmp('discovery');
  try {
    for (const [path, expected] of [
      ['/missing/.well-known/openid-configuration', /answered 404 \(content-type text\/html, body: ".*Not Found/],
      ['/portal/.well-known/openid-configuration', /answered 200 with text\/html; charset=utf-8, not a JSON discovery document \(body: ".*Bank login portal/],
    ] as const) {
      const raw = sb.profile('A') as any;
      raw.auth.discoveryUrl = `${base}${path}`;
      delete raw.auth.issuer;
      const profile = join(dir, 'bank.json');
      await writeFile(profile, JSON.stringify(raw), { mode: 0o600 });

      const conform = await obtpp(['conform', '--profile', profile], { cwd: dir });
      assert.equal(conform.code, 3, conform.stderr);
      assert.equal(conform.stderr.trim().split('\n').length, 1, conform.stderr);
      assert.ok(conform.stderr.includes(`${base}${path}`), `names the URL: ${conform.stderr}`);
      assert.match(conform.stderr, expected);
      assert.doesNotMatch(conform.stderr, /OAUTH_RESPONSE_IS_NOT_CONFORM/);
      const reports = await readdir(join(dir, 'reports')).catch(() => [] as string[]);
      assert.deepEqual(reports, [], 'no empty timestamp dir left by a run that could not happen');

      // The TPP commands go through the same discovery.
      const state = join(dir, 'state.json');
      const consent = await obtpp(['consent', 'create', 'ais', '--profile', profile, '--state', state], { cwd: dir });
      assert.equal(consent.code, 3, consent.stderr);
      assert.ok(consent.stderr.includes(`${base}${path}`), consent.stderr);
      assert.match(consent.stderr, expected);
    }
  } finally {
    await close();
    await sb.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
