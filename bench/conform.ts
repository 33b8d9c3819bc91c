/**
 * Wall time of a whole `obtpp conform` against the embedded sandbox (both variants, reports
 * written), as a fresh process, N times (default 3). Prints one JSON line.
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
const times: number[] = [];
let scenarios = 0;
for (let i = 0; i < n; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'obtpp-bench-'));
  try {
    const t0 = performance.now();
    execFileSync(process.execPath, [bin, 'conform', '--report-dir', dir], { stdio: 'ignore', env: { ...process.env, NO_COLOR: '1', CI: 'true' } });
    times.push(performance.now() - t0);
    const s = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    scenarios = s.totals.scenarios.passed + s.totals.scenarios.failed;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(JSON.stringify({ name: `obtpp conform, sandbox, variants A+B (${scenarios} scenarios)`, ...stats(times), goal: '≤ 6 s' }));
