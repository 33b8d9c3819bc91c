// `npm test`'s test command: every test/**/*.test.ts through Node's test runner, two processes at a
// time, with the run's global set-up (test/global-setup.ts: one Chromium, one pool of warm obtpp
// workers) — and most test files sharing a process with the others of their folder.
//
// Why: a test file in a process of its own pays Node's start, its modules' loading and a cold JIT
// again, about half a second of CPU each, and most files' own work is less than that. So the files
// of a folder run in groups (GROUP_SIZE at most), one process per group: a generated file
// (in a temporary folder) that imports each member inside a `describe` named by the
// member's path. The member's top-level hooks (before, after) then belong to that describe, so they
// run around the member's own tests, as they did in a process of its own; the report shows each
// member as a suite of its path. A file still runs alone as usual:
// `node --test --test-global-setup=test/global-setup.ts FILE`.
//
// Which files share a process, and in what order they start: scripts/test-plan.mjs.
//
//   node scripts/test.mjs [node --test options…] [FILE…]     (build first: npm run build)
// Options go to `node --test` (a reporter, --test-name-pattern…); FILEs, when given, replace the
// whole suite (and still group).
import { spawn } from 'node:child_process';
import { globSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { plan, runFileName, runSource } from './test-plan.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const args = process.argv.slice(2);
const options = args.filter((a) => a.startsWith('-'));
const named = args.filter((a) => !a.startsWith('-'));
const files = [...new Set((named.length ? named.flatMap((p) => globSync(p, { cwd: root })) : globSync('test/**/*.test.ts', { cwd: root }))
  .map((f) => relative(root, resolve(root, f))))]
  .sort();
if (files.length === 0) {
  process.stderr.write(`scripts/test.mjs: no test file matches ${named.map((n) => JSON.stringify(n)).join(' ')}; give test files or patterns such as "test/cli/*.test.ts"\n`);
  process.exit(2);
}

// The processes' files, gone when the run ends.
const groupDir = mkdtempSync(join(tmpdir(), 'obtpp-test-groups-'));

const runs = plan(files).map((members, i) => {
  const file = join(groupDir, runFileName(members, i));
  writeFileSync(file, runSource(members, root));
  return file;
});

const child = spawn(process.execPath, [
  '--test', '--test-concurrency=2', '--test-timeout=600000', '--test-global-setup=test/global-setup.ts',
  ...options, ...runs,
], { cwd: root, stdio: 'inherit' });
// Ctrl-C reaches the runner too (the terminal signals the whole process group): wait for it to end.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => {
  rmSync(groupDir, { recursive: true, force: true });
  process.exitCode = code ?? (signal ? 1 : 0);
});
