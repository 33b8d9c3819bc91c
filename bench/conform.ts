/**
 * Wall time of a whole `obtpp conform` against the embedded sandbox (reports written), as a fresh
 * process, N times (default 3) per layout: the spec's variants A+B, and UK Read/Write v3.1.11 at
 * its official paths (`--standard uk-3.1`: every AIS, CBPII, PIS and VRP operation), and v4.0
 * (`--standard uk-4.0`). Prints one JSON line per layout.
 *   node bench/conform.ts [N]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stats } from './stats.ts';

const n = Number(process.argv[2] ?? 3);
const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'src', 'cli', 'main.js');

function bench(args: string[]): { times: number[]; scenarios: number } {
  const times: number[] = [];
  let scenarios = 0;
  for (let i = 0; i < n; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'obtpp-bench-'));
    try {
      const t0 = performance.now();
      execFileSync(process.execPath, [bin, 'conform', ...args, '--report-dir', dir], { stdio: 'ignore', env: { ...process.env, NO_COLOR: '1', CI: 'true' } });
      times.push(performance.now() - t0);
      const s = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
      scenarios = s.totals.scenarios.passed + s.totals.scenarios.failed;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { times, scenarios };
}

const spec = bench([]);
console.log(JSON.stringify({ name: `obtpp conform, sandbox, variants A+B (${spec.scenarios} scenarios)`, ...stats(spec.times), goal: '≤ 6 s' }));
const uk = bench(['--standard', 'uk-3.1']);
console.log(JSON.stringify({ name: `obtpp conform --standard uk-3.1, sandbox, every v3.1.11 operation (${uk.scenarios} scenarios)`, ...stats(uk.times), goal: '≤ 8 s' }));
// Issue 27's goal: a whole v4.0 + VRP certification (every v4.0 AIS, CBPII and PIS operation, and VRP with PUT and PATCH).
const uk4 = bench(['--standard', 'uk-4.0']);
console.log(JSON.stringify({ name: `obtpp conform --standard uk-4.0, sandbox, every v4.0 operation and VRP (${uk4.scenarios} scenarios)`, ...stats(uk4.times), goal: '≤ 8 s' }));
