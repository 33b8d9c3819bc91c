// Records what `obtpp conform` concludes about the embedded sandbox under every fault, so that a
// change to the sandbox (a refactor) can be shown to change no verdict: run it before and after and
// diff the two files.
//
//   npm run build && node scripts/fault-verdicts.ts OUT.json [FAULT...] [--workers N]
//
// One full conformance run (both variants, every rule) per fault of the UK sandbox (rule, chaos and
// data faults) and of the Berlin Group sandbox, plus one run without a fault for each; naming faults
// runs only those (e.g. to rerun one whose verdict looks flaky). Per run it writes the verdict, the
// exit code, each rule's status per variant, and each failed rule's failure messages and each
// warning's message with the volatile parts (ids, UUIDs, times, ports) masked. The fault lists
// themselves (`--list-faults` of each dialect) are written too. The runs go through the compiled
// library (dist/), two worker processes each with one browser (test/conformance/fault-runs.ts).
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInWorkers, type RunJob, type RunResult } from '../test/conformance/fault-runs.ts';
import { listFaults } from '../src/sandbox/faults.ts';
import { listBgFaults } from '../src/sandbox/berlin-group/faults.ts';

const args = process.argv.slice(2);
const workersAt = args.indexOf('--workers');
const workers = workersAt >= 0 ? Number(args.splice(workersAt, 2)[1]) : 2;
const [out, ...only] = args;
if (!out) {
  process.stderr.write('usage: node scripts/fault-verdicts.ts OUT.json [FAULT...] [--workers N]\n');
  process.exit(2);
}

interface Run {
  key: string;
  options: RunJob['options'];
}

const runs: Run[] = [
  { key: 'obie (no fault)', options: {} },
  // A fault of a published standard's layout (VRP, UK v4.0) is recorded in that layout.
  ...listFaults().map((f) => ({ key: `obie ${f.name}`, options: { sandboxFaults: [f.name], ...(f.standard ? { standard: f.standard } : {}) } })),
  { key: 'berlin-group (no fault)', options: { dialect: 'berlin-group' as const } },
  ...listBgFaults().map((f) => ({ key: `berlin-group ${f.name}`, options: { dialect: 'berlin-group' as const, sandboxFaults: [f.name] } })),
].filter((r) => only.length === 0 || only.some((name) => r.key.split(' ')[1] === name || r.key === name));

/** Masks what differs from run to run: ids, UUIDs, tokens, times, durations, ports. */
export function mask(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
    .replace(/\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?/g, '<time>')
    .replace(/<time>(%3A[\d.]+)+/g, '<time>')
    .replace(/(127\.0\.0\.1|localhost|\[::1\]):\d+/g, '$1:<port>')
    .replace(/\b\d+(\.\d+)? ?(ms|s)\b/g, '<duration>')
    .replace(/\(read \d+ before stopping\)/g, '(read <bytes> before stopping)')
    .replace(/(?<![A-Za-z0-9_-])(?=[A-Za-z_-]*\d)[A-Za-z0-9_-]{20,}/g, '<token>');
}

function describe(result: RunResult): unknown {
  if (result.error !== undefined) return { error: mask(result.error) };
  const { summary, exitCode } = result;
  return {
    exitCode,
    verdict: summary.verdict,
    variants: Object.fromEntries(summary.variants.map((v: any) => [v.variant, Object.fromEntries(v.rules.map((r: any) => [r.id, {
      status: r.status,
      ...(r.failures?.length ? { failures: r.failures.map((f: any) => mask(String(f.message))) } : {}),
      ...(r.warnings?.length ? { warnings: r.warnings.map((w: any) => mask(String(w.message))) } : {}),
    }]))])),
  };
}

const started = Date.now();
const dirs = await Promise.all(runs.map((r) => mkdtemp(join(tmpdir(), 'obtpp-verdicts-'))));
const jobs: RunJob[] = runs.map((r, i) => ({ options: r.options, reportDir: dirs[i]! }));
try {
  let done = 0;
  const results = await runInWorkers(jobs, workers, (job, result) => {
    const run = runs[jobs.indexOf(job)]!;
    process.stderr.write(`${++done}/${runs.length} ${run.key}: ${result.error ?? `${result.summary.verdict} (exit ${result.exitCode})`}\n`);
  });
  const record = {
    faults: { obie: listFaults(), 'berlin-group': listBgFaults() },
    runs: Object.fromEntries(runs.map((r, i) => [r.key, describe(results[i]!)])),
  };
  await writeFile(out, JSON.stringify(record, null, 2) + '\n');
  process.stderr.write(`${runs.length} runs in ${Math.round((Date.now() - started) / 1000)} s → ${out}\n`);
} finally {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}
