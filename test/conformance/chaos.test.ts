// `obtpp conform` survives any bank: against each chaos fault of the sandbox the run ends (no crash,
// no hang beyond the profile's time-outs), the scenarios touching the broken part fail with a message
// that names the cause and carry the evidence, the others still pass, and the exit code says which
// (1, or 3 when nothing could run). Each run is scoped to the function that can see its fault and to
// the registration scenarios, which see none. The runs go through `runConformance` (what the binary
// runs) in the test run's warm workers, four at a time (test/conformance/fault-runs.ts), each run with its own sandbox; a
// run that crashes its worker, or outlasts the bound, fails. tls-host-mismatch, which stops a run
// before it starts, goes through the real binary. Real sandbox, real Chromium, real sockets.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listFaults } from '../../src/sandbox/faults.ts';
import type { ChaosFaultName } from '../../src/sandbox/faults.ts';
import { runInWorkers, type RunJob, type RunResult } from './fault-runs.ts';
import { bin, root, runObtpp, type Run } from '../helpers/obtpp.ts';

/** A binary run past this bound is a hang, and is killed. */
const BOUND_MS = 240_000;

function obtpp(args: string[], timeoutMs = BOUND_MS): Promise<Run> {
  return runObtpp(args, { timeoutMs, killSignal: 'SIGKILL' });
}

interface Expectation {
  /**
   * The function whose scenarios can see the fault (its feature's tag): the run is scoped to them
   * and to the registration scenarios (@dcr), which touch none of the functions, so that a
   * scenario outside the broken part is there to pass.
   */
  scope: '@ais' | '@cof' | '@pis';
  /** What the failure message must say: the cause, in the harness's words. */
  cause: RegExp;
  /** The exchange the evidence must hold: its path, and its status or transport error. */
  exchange?: { path: RegExp; status?: number; error?: string };
  /** A PSU-page fault: the failure carries a screenshot (summary.json and messages.ndjson). */
  screenshot?: true;
  /**
   * PSU journeys at once (`--journeys`): where every journey of the scope waits out the step
   * time-out, the prepared ones wait together rather than two by two.
   */
  journeys?: number;
}

/** Per chaos fault, through the embedded sandbox (tls-host-mismatch has its own test below). */
const EXPECT: Record<Exclude<ChaosFaultName, 'tls-host-mismatch'>, Expectation> = {
  'slow-response': { scope: '@ais', cause: /the bank gave no usable answer: time-out after 3000 ms/, exchange: { path: /\/balances$/, error: 'timeout' } },
  'connection-reset': { scope: '@ais', cause: /the bank gave no usable answer: connection to \S+ was closed before the response was complete/, exchange: { path: /\/transactions$/, error: 'connection_reset' } },
  'html-body': { scope: '@ais', cause: /body is not JSON: Content-Type text\/html/, exchange: { path: /\/accounts\/[^/]+$/, status: 200 } },
  'json-bomb': { scope: '@ais', cause: /listing the accounts: the bank answered GET \S*\/accounts with 200 and a body obtpp cannot use \(JSON nested deeper than 256 levels, not parsed\)/, exchange: { path: /\/accounts$/, status: 200 } },
  'invalid-json': { scope: '@cof', cause: /body is not JSON although its Content-Type is application\/json/, exchange: { path: /\/funds-confirmations$/, status: 201 } },
  'wrong-content-type': { scope: '@pis', cause: /Content-Type text\/plain.*must come with Content-Type application\/json/, exchange: { path: /\/status$/, status: 200 } },
  'oversized-body': { scope: '@ais', cause: /the bank gave no usable answer: response body over 1048576 bytes/, exchange: { path: /\/transactions\/[^/]+$/, error: 'body_too_large' } },
  '500-no-body': { scope: '@cof', cause: /→ 500 Internal Server Error \(no body\)/, exchange: { path: /\/funds-confirmation-consents\/[^/]+$/, status: 500 } },
  '503-no-body': { scope: '@pis', cause: /→ 503 Service Unavailable \(no body\)/, exchange: { path: /\/domestic-payments$/, status: 503 } },
  '429-retry-after': { scope: '@pis', cause: /→ 429 Too Many Requests \(Retry-After: 30\)/, exchange: { path: /\/domestic-payments\/[^/]+$/, status: 429 } },
  'redirect-other-host': { scope: '@cof', cause: /→ 307 Temporary Redirect \(redirect to https:\/\/gateway\.other-bank\.invalid\/\S+\)/, exchange: { path: /\/funds-confirmation-consents$/, status: 307 } },
  'login-page-hangs': { scope: '@pis', cause: /step 0 \(open the authorization URL\): the bank's page did not finish loading within 5000 ms/, screenshot: true, journeys: 8 },
  'no-approve-button': { scope: '@pis', cause: /step 7 \(click \[data-testid="approve"\]\): selector "\[data-testid="approve"\]" not found within 5000 ms/, screenshot: true, journeys: 8 },
};

interface Failure { rule: string; scenario: string; message: string; evidence?: { exchanges?: any[]; screenshots?: string[] } }

function failuresOf(summary: any): Failure[] {
  return summary.variants.flatMap((v: any) => v.rules.flatMap((r: any) => r.failures.map((f: any) => ({ rule: r.id, ...f }))));
}

/** Every chaos fault's run, started on first use in two workers; each test awaits its own. */
type ChaosFault = keyof typeof EXPECT;
let runs: Map<ChaosFault, { job: RunJob; result: Promise<RunResult> }> | undefined;
function runOf(fault: ChaosFault): { job: RunJob; result: Promise<RunResult> } {
  if (!runs) {
    const started = new Map<ChaosFault, { job: RunJob; result: Promise<RunResult> }>();
    const settle = new Map<RunJob, (r: RunResult) => void>();
    for (const [name, expect] of Object.entries(EXPECT) as Array<[ChaosFault, Expectation]>) {
      const job: RunJob = {
        reportDir: join(tmpdir(), `obtpp-chaos-${name}-${process.pid}-${Date.now()}`),
        options: { variant: 'A', parallel: 1, sandboxFaults: [name], tags: `${expect.scope} or @dcr`, ...(expect.journeys ? { journeys: expect.journeys } : {}) },
      };
      started.set(name, { job, result: new Promise<RunResult>((r) => settle.set(job, r)) });
    }
    const jobs = [...started.values()].map((s) => s.job);
    // Four at a time: most of a chaos run is waiting (time-outs, a page that never loads), not computing.
    void runInWorkers(jobs, 4, (job, result) => settle.get(job)!(result));
    runs = started;
  }
  return runs.get(fault)!;
}

describe('obtpp conform against a chaos bank', () => {
  test('every chaos fault of the sandbox has a case here', () => {
    const chaos = listFaults().filter((f) => f.kind === 'chaos').map((f) => f.name).sort();
    assert.deepEqual([...Object.keys(EXPECT), 'tls-host-mismatch'].sort(), chaos);
  });

  for (const [fault, expect] of Object.entries(EXPECT) as Array<[ChaosFault, Expectation]>) {
    test(`${fault}: the run completes, exit 1, the cause named with its evidence, the other scenarios pass`, async () => {
      const { job, result } = runOf(fault);
      const dir = job.reportDir;
      let passed = false;
      try {
        const run = await result;
        assert.equal(run.error, undefined, `the run did not complete: ${run.error}`);
        assert.equal(run.exitCode, 1, `exit ${run.exitCode}`);

        const summary = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8'));
        assert.deepEqual(run.summary, summary, 'the summary returned is summary.json');
        assert.equal(summary.verdict, 'fail');
        assert.ok(summary.totals.scenarios.passed > 0, 'the other scenarios still ran and passed');
        assert.ok(summary.variants[0].rules.some((r: any) => r.id.startsWith('DCR-') && r.status === 'passed'), 'the scenarios outside the broken function passed');
        const failures = failuresOf(summary);
        const named = failures.filter((f) => expect.cause.test(f.message));
        assert.ok(named.length > 0, `a failure names the cause ${expect.cause}; got:\n${failures.map((f) => `  ${f.rule}: ${f.message.split('\n')[0]}`).join('\n')}`);
        process.stdout.write(`# ${fault}: exit ${run.exitCode} in ${(summary.durationMs / 1000).toFixed(1)} s, ${summary.totals.scenarios.passed} passed, ${failures.length} failed (${named.length} naming the cause) — ${named[0]!.message.split('\n')[0]}\n`);
        for (const f of failures.filter((x) => !named.includes(x))) process.stdout.write(`#   also failed: ${f.rule} ${f.scenario}: ${f.message.split('\n')[0]}\n`);
        if (expect.exchange) {
          const { path, status, error } = expect.exchange;
          const withExchange = named.find((f) => f.evidence?.exchanges?.some((e) => path.test(new URL(e.url).pathname)
            && (status === undefined || e.response?.status === status) && (error === undefined || e.error?.code === error)));
          assert.ok(withExchange, `a failure naming the cause carries the exchange (${path}${status ? ` → ${status}` : ''}${error ? `, ${error}` : ''}) as evidence`);
        }
        if (expect.screenshot) {
          const shot = named.flatMap((f) => f.evidence?.screenshots ?? [])[0];
          assert.ok(shot, 'a failure naming the PSU step carries a screenshot in summary.json');
          await access(shot);
          const png = (await readFile(shot)).subarray(0, 8);
          assert.deepEqual([...png], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'the screenshot is a PNG');
          const messages = (await readFile(join(dir, 'messages.ndjson'), 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l));
          assert.ok(messages.some((m) => m.attachment?.mediaType === 'image/png'), 'messages.ndjson carries the screenshot as an image/png attachment');
        }
        passed = true;
      } finally {
        // A failed case keeps its reports to be read.
        if (passed || process.env.OBTPP_KEEP_REPORTS === undefined) await rm(dir, { recursive: true, force: true });
        else process.stdout.write(`# ${fault}: reports kept in ${dir}\n`);
      }
    });
  }

  test('tls-host-mismatch: nothing can run, exit 3 with one line naming the certificate mismatch', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'obtpp-chaos-tls-'));
    const profile = join(dir, 'bank.yaml');
    const bank = spawn(process.execPath, [bin, 'sandbox', '--tls', '--fault', 'tls-host-mismatch', '--write-profile', profile], { cwd: root, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => bank.once('exit', (code) => resolve(code)));
    try {
      let out = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the sandbox did not start: ${out}`)), 30_000);
        bank.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('profile:')) {
            clearTimeout(timer);
            resolve();
          }
        });
        bank.once('exit', (code) => reject(new Error(`the sandbox exited (${code}): ${out}`)));
      });
      assert.match(out, /issuer .*: https:\/\/127\.0\.0\.1:\d+/, 'the fault serves HTTPS');

      const started = Date.now();
      const run = await obtpp(['conform', '--profile', profile, '--report-dir', join(dir, 'report')]);
      process.stdout.write(`# tls-host-mismatch: exit ${run.code} in ${((Date.now() - started) / 1000).toFixed(1)} s — ${run.stderr.trim()}\n`);
      assert.equal(run.signal, null, 'the run ended by itself');
      assert.equal(run.code, 3, `exit ${run.code}; stderr: ${run.stderr}`);
      const lines = run.stderr.trim().split('\n');
      assert.equal(lines.length, 1, `one line on stderr, got:\n${run.stderr}`);
      assert.match(lines[0]!, /^obtpp: .*TLS certificate mismatch: the certificate presented by 127\.0\.0\.1:\d+ is not valid for that host \(it is for DNS:other-bank\.invalid\)/);
    } finally {
      bank.kill('SIGINT');
      await exited;
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('tls-host-mismatch through the embedded sandbox: exit 3 as well', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'obtpp-chaos-tls-embedded-'));
    try {
      const run = await obtpp(['conform', '--variant', 'A', '--sandbox-fault', 'tls-host-mismatch', '--report-dir', dir]);
      assert.equal(run.code, 3, `exit ${run.code}`);
      assert.match(run.stderr, /certificate mismatch/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
