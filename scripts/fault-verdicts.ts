// Records what `obtpp conform` concludes about the embedded sandbox under every fault, so that a
// change to the sandbox (a refactor) can be shown to change no verdict: run it before and after and
// diff the two files.
//
//   npm run build && node scripts/fault-verdicts.ts OUT.json [FAULT...] [--workers N] [--scoped]
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
const scopedAt = args.indexOf('--scoped');
const scoped = scopedAt >= 0 && args.splice(scopedAt, 1).length > 0;
const [out, ...only] = args;
if (!out) {
  process.stderr.write('usage: node scripts/fault-verdicts.ts OUT.json [FAULT...] [--workers N] [--scoped]\n');
  process.exit(2);
}

interface Run {
  key: string;
  options: RunJob['options'];
}

/** A fault as either sandbox lists it (the fields a run's set-up needs). */
interface Listed { name: string; rule: string; kind: string; standard?: 'uk-3.1' | 'uk-4.0'; security?: string; sca?: string[]; signatures?: boolean }

/**
 * --scoped: a rule fault's run is the fault sweep's (test/conformance/conform.test.ts): variant A,
 * scoped to the fault's rule, in the set-up the fault bends (its standard, security profile, SCA
 * approach, signing); chaos faults are left to test/conformance/chaos.test.ts. The runs without a
 * fault and of the data fault stay whole runs.
 */
function scopedRun(dialect: 'obie' | 'berlin-group', f: Listed): Run | undefined {
  if (f.kind === 'chaos') return undefined;
  if (f.kind !== 'rule') return { key: `${dialect} ${f.name}`, options: { sandboxFaults: [f.name] } };
  const standard = f.standard ?? (/^(UK|VRP-)/.test(f.rule) ? 'uk-3.1' as const : undefined);
  const waits = ['AIS-08', 'COF-06'].includes(f.rule) ? '' : ' and not @waits';
  return {
    key: `${dialect} ${f.name}`,
    options: {
      ...(dialect === 'berlin-group' ? { dialect } : {}), ...(standard ? { standard } : { variant: 'A' as const }), parallel: 1, sandboxFaults: [f.name], tags: `@${f.rule}${waits}`,
      ...(f.security ? { sandboxSecurity: f.security } : {}), ...(f.sca ? { sandboxSca: f.sca as never } : {}), ...(f.signatures ? { sandboxSignatures: true } : {}),
    },
  };
}

const runs: Run[] = (scoped ? [
  { key: 'obie (no fault)', options: {} },
  { key: 'obie uk-3.1 (no fault)', options: { standard: 'uk-3.1' as const } },
  { key: 'obie uk-4.0 (no fault)', options: { standard: 'uk-4.0' as const } },
  ...(listFaults() as Listed[]).flatMap((f) => scopedRun('obie', f) ?? []),
  { key: 'berlin-group (no fault)', options: { dialect: 'berlin-group' as const } },
  ...(listBgFaults() as Listed[]).flatMap((f) => scopedRun('berlin-group', f) ?? []),
] : [
  { key: 'obie (no fault)', options: {} },
  // A fault of routes only the UK layout has (UKAIS-…, UKPIS-…, VRP-…) is run in that layout (--standard uk-3.1), beside its own no-fault run.
  { key: 'obie uk-3.1 (no fault)', options: { standard: 'uk-3.1' as const } },
  ...listFaults().map((f) => ({ key: `obie ${f.name}`, options: { sandboxFaults: [f.name], ...(f.standard ? { standard: f.standard } : /^UK/.test(f.rule) ? { standard: 'uk-3.1' as const } : {}) } })),
  { key: 'berlin-group (no fault)', options: { dialect: 'berlin-group' as const } },
  // A fault of the decoupled or embedded SCA shows only where the sandbox offers that approach.
  ...listBgFaults().map((f) => ({ key: `berlin-group ${f.name}`, options: { dialect: 'berlin-group' as const, sandboxFaults: [f.name], ...(f.sca ? { sandboxSca: f.sca } : {}) } })),
]).filter((r) => only.length === 0 || only.some((name) => r.key.split(' ')[1] === name || r.key === name));

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
