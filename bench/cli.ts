/**
 * The terminal client's start-up and a cached-token read, as child processes of the REAL binary:
 *   1. `obtpp --help` (cold start: commander and the light define modules only);
 *   2. `obtpp accounts --json` against an in-process sandbox, with the token cached in the state
 *      file (a consent is created and authorised once through the CLI first; not timed).
 *
 *   npx tsc -p tsconfig.json && node bench/cli.ts [N=15]
 * Goals: --help median under 0.12 s; accounts --json median under 0.25 s.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { startSandbox } from '../src/sandbox/index.ts';
import { stats } from './stats.ts';

const n = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 15);
const asJson = process.argv.includes('--json');
const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'dist/src/cli/main.js');
const dir = await mkdtemp(join(tmpdir(), 'obtpp-bench-cli-'));
const sb = await startSandbox({ quiet: true });
const profile = join(dir, 'sandbox.json');
await writeFile(profile, JSON.stringify(sb.profile('A')), { mode: 0o600 });
const env = { PATH: process.env.PATH ?? '', HOME: dir, NO_COLOR: '1', CI: '1', OBTPP_PROFILE: profile, OBTPP_STATE: join(dir, 'state.json') };

function run(args: string[]): Promise<number> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    execFile(process.execPath, [bin, ...args], { env, cwd: dir }, (error, _out, stderr) => {
      if (error) fail(new Error(`obtpp ${args.join(' ')}: ${stderr}`));
      else done((performance.now() - t0) / 1000);
    });
  });
}

async function measure(label: string, args: string[], goal?: string): Promise<void> {
  await run(args); // warm the OS file cache
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push(await run(args));
  const s = stats(times.map((t) => t * 1000));
  if (asJson) console.log(JSON.stringify({ name: label, ...s, goal }));
  else console.log(`${label.padEnd(34)} n=${n}  median ${(s.medianMs / 1000).toFixed(3)} s  min ${(s.minMs / 1000).toFixed(3)} s  max ${(s.maxMs / 1000).toFixed(3)} s`);
}

try {
  if (!asJson) await measure('obtpp --help', ['--help'], 'median < 0.12 s');
  await run(['consent', 'create', 'ais']);
  await run(['consent', 'authorise']);
  await measure('obtpp accounts --json (cached token, sandbox)', ['accounts', '--json'], 'median < 0.25 s');
  if (!asJson) await measure('obtpp --version', ['--version']);
} finally {
  await sb.stop();
  await rm(dir, { recursive: true, force: true });
}
