/**
 * The default `obtpp conform` of another commit beside this checkout's, on the same machine in one
 * run: REF is checked out into a temporary worktree (this checkout's node_modules linked, built
 * there), then the two are run in turns, N times each (default 5), and the medians compared.
 *   node bench/compare.ts REF [N]        (build this checkout first: npm run build)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stats } from './stats.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface CompareRow { name: string; ref: string; refMedianMs: number; headMedianMs: number; ratio: number; runs: number }

function once(checkout: string): number {
  const dir = mkdtempSync(join(tmpdir(), 'obtpp-compare-'));
  try {
    const t0 = performance.now();
    execFileSync(process.execPath, [join(checkout, 'dist', 'src', 'cli', 'main.js'), 'conform', '--report-dir', join(dir, 'r')], { cwd: checkout, stdio: 'ignore', env: { ...process.env, NO_COLOR: '1', CI: 'true' } });
    const ms = performance.now() - t0;
    const s = JSON.parse(readFileSync(join(dir, 'r', 'summary.json'), 'utf8'));
    if (s.verdict !== 'pass') throw new Error(`${checkout}: the default run's verdict is ${s.verdict}`);
    return ms;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function compareWith(ref: string, n = 5): CompareRow {
  const sha = execFileSync('git', ['rev-parse', '--short', ref], { cwd: root, encoding: 'utf8' }).trim();
  const other = mkdtempSync(join(tmpdir(), 'obtpp-compare-ref-'));
  execFileSync('git', ['worktree', 'add', '--detach', other, sha], { cwd: root, stdio: 'ignore' });
  try {
    symlinkSync(join(root, 'node_modules'), join(other, 'node_modules'), 'dir');
    execFileSync('npm', ['run', 'build'], { cwd: other, stdio: 'ignore' });
    once(other);
    once(root);
    const before: number[] = [];
    const after: number[] = [];
    for (let i = 0; i < n; i++) {
      before.push(once(other));
      after.push(once(root));
    }
    const b = stats(before).medianMs;
    const a = stats(after).medianMs;
    return { name: `obtpp conform (default), ${sha} against this checkout`, ref: sha, refMedianMs: b, headMedianMs: a, ratio: a / b, runs: n };
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', other], { cwd: root, stdio: 'ignore' });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const ref = process.argv[2];
  if (!ref) throw new Error('usage: node bench/compare.ts REF [N]');
  console.log(JSON.stringify(compareWith(ref, Number(process.argv[3] ?? 5))));
}
