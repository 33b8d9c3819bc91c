// `npm run build`: dist/ from the sources — dist/ removed, `tsc`, the standalone validators, the
// assets — and a stamp, dist/.build-stamp, with a hash of every input the build reads.
//
// `node scripts/build.mjs --if-stale` (what `npm test` runs first) builds only when that hash
// differs from the stamp's, or dist/ lacks its entry points: `npm ci` has just built (the prepare
// script), and so has a session that ran the build after its last edit, so the tests' own build is
// most often the same bytes again (about twice a default conformance run of CPU on the 2-core
// build machine: `/usr/bin/time npm run build`). `--check` builds nothing and exits 0 when dist/ is
// a build of the sources as they are, 1 when not (the test run's global set-up asks it).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, 'dist', '.build-stamp');
/** What the build reads: the compiled folders, the build's own steps, and what decides their output. */
const INPUTS = ['src', 'step-definitions', 'scripts/build.mjs', 'scripts/build-validators.mjs', 'scripts/copy-assets.mjs', 'tsconfig.json', 'package.json', 'package-lock.json'];
/** What a finished build has written (a build cut short leaves one of them missing). */
const OUTPUTS = ['dist/src/cli/main.js', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/profile/profile-validator.cjs', 'dist/src/conformance/report.css'];

function files(path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full).sort().flatMap((name) => files(join(path, name)));
}

function inputsHash() {
  const hash = createHash('sha256');
  hash.update(`node ${process.versions.node.split('.')[0]}\0`);
  for (const file of INPUTS.flatMap(files)) hash.update(`${relative(root, join(root, file))}\0`).update(readFileSync(join(root, file))).update('\0');
  return hash.digest('hex');
}

const ifStale = process.argv.includes('--if-stale');
const hash = inputsHash();
const fresh = existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === hash && OUTPUTS.every((f) => existsSync(join(root, f)));
if (process.argv.includes('--check')) {
  // Builds nothing: exit 0 when dist/ is a build of the sources as they are, else 1.
  process.exit(fresh ? 0 : 1);
} else if (ifStale && fresh) {
  process.stdout.write('build: dist/ is up to date with the sources (dist/.build-stamp); not rebuilt\n');
} else {
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  const tsc = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'tsc.cmd' : 'tsc');
  try {
    execFileSync(tsc, ['-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
    for (const step of ['build-validators.mjs', 'copy-assets.mjs']) execFileSync(process.execPath, [join(root, 'scripts', step)], { cwd: root, stdio: 'inherit' });
  } catch (error) {
    // The step printed its own errors; the build fails with its exit code, and leaves no stamp.
    process.exit(typeof error.status === 'number' && error.status !== 0 ? error.status : 1);
  }
  writeFileSync(stamp, `${hash}\n`);
}
