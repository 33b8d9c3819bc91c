/**
 * Whole `obtpp conform` runs against the embedded sandbox, each a fresh process, N times (default
 * 3) per layout: wall time, the obtpp process's peak RSS (getrusage, through bench/rss-probe.mjs)
 * and its CPU. Prints one JSON line per layout: `default` (the spec's variants A+B, the reference
 * every ratio of `npm run bench` is taken against), `uk-3.1`, `uk-4.0` and `berlin-group`.
 *   node bench/conform.ts [N] [layout …]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stats } from './stats.ts';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '..', 'dist', 'src', 'cli', 'main.js');
const probe = pathToFileURL(join(here, 'rss-probe.mjs')).href;

/** The layouts, by the name `npm run bench` knows them, with their `obtpp conform` arguments. */
export const LAYOUTS: Record<string, { args: string[]; what: string }> = {
  default: { args: [], what: 'obtpp conform (sandbox, variants A+B)' },
  'uk-3.1': { args: ['--standard', 'uk-3.1'], what: 'obtpp conform --standard uk-3.1 (every v3.1.11 operation and VRP)' },
  'uk-4.0': { args: ['--standard', 'uk-4.0'], what: 'obtpp conform --standard uk-4.0 (every v4.0 operation and VRP)' },
  'berlin-group': { args: ['--dialect', 'berlin-group'], what: 'obtpp conform --dialect berlin-group (variants A+B)' },
  // The OpenID Foundation's modules (issue 38): measured once each, beside the rounds above.
  'oidf-fapi1': { args: ['--security', 'fapi1-advanced', '--tags', '@oidf'], what: 'obtpp conform --security fapi1-advanced --tags @oidf (every OIDF FAPI 1.0 module that applies)' },
  'oidf-fapi2': { args: ['--security', 'fapi2-dpop', '--tags', '@oidf and not @waits'], what: 'obtpp conform --security fapi2-dpop --tags "@oidf and not @waits" (every OIDF FAPI 2.0 module that applies but the 62-second code expiry)' },
  'oidf-fapi2-all': { args: ['--security', 'fapi2-dpop', '--tags', '@oidf'], what: 'obtpp conform --security fapi2-dpop --tags @oidf (the same with the module that waits out a code\'s 60 seconds)' },
};

/** The layouts run in rounds (the rest are measured once). */
export const ROUNDS = ['default', 'uk-3.1', 'uk-4.0', 'berlin-group'];

export interface ConformRow { name: string; layout: string; runs: number; medianMs: number; minMs: number; maxMs: number; scenarios: number; peakRssMiB: number; cpuMs: number; /** Each run's wall, in the order run. */ timesMs: number[] }

/** N runs of one layout, as a user runs them (reports written, plain output). */
export function benchConform(layout: string, n: number, extra: string[] = []): ConformRow {
  const { args, what } = LAYOUTS[layout]!;
  const times: number[] = [];
  const rss: number[] = [];
  const cpu: number[] = [];
  let scenarios = 0;
  for (let i = 0; i < n; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'obtpp-bench-'));
    try {
      const usage = join(dir, 'usage.json');
      const t0 = performance.now();
      execFileSync(process.execPath, ['--import', probe, bin, 'conform', ...args, ...extra, '--report-dir', join(dir, 'r')], {
        stdio: 'ignore',
        env: { ...process.env, NO_COLOR: '1', CI: 'true', OBTPP_BENCH_USAGE_FILE: usage },
      });
      times.push(performance.now() - t0);
      const u = JSON.parse(readFileSync(usage, 'utf8'));
      rss.push(u.maxRssKiB / 1024);
      cpu.push(u.cpuMs);
      const s = JSON.parse(readFileSync(join(dir, 'r', 'summary.json'), 'utf8'));
      scenarios = s.totals.scenarios.passed + s.totals.scenarios.failed;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  return { name: `${what}, ${scenarios} scenarios`, layout, ...stats(times), timesMs: times, scenarios, peakRssMiB: Math.max(...rss), cpuMs: sorted(cpu)[cpu.length >> 1]! };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const n = Number(process.argv[2] ?? 3);
  const layouts = process.argv.slice(3).length ? process.argv.slice(3) : Object.keys(LAYOUTS);
  for (const layout of layouts) console.log(JSON.stringify(benchConform(layout, n)));
}
