/**
 * Cold start of the compiled CLI: `obtpp --help` as a fresh process, N times (default 15), against
 * `node -e 0` as the floor. Prints one JSON line per measurement.
 *   node bench/cold-start.ts [N]
 */
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stats } from './stats.ts';

const n = Number(process.argv[2] ?? 15);
const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'src', 'cli', 'main.js');
const time = (args: string[]) => {
  const out: number[] = [];
  execFileSync(process.execPath, args, { stdio: 'ignore' }); // warm the file cache once
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    execFileSync(process.execPath, args, { stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } });
    out.push(performance.now() - t0);
  }
  return out;
};
console.log(JSON.stringify({ name: 'node -e 0 (the floor)', ...stats(time(['-e', '0'])) }));
console.log(JSON.stringify({ name: 'obtpp --help (cold start)', ...stats(time([bin, '--help'])), goal: 'median < 0.12 s' }));
