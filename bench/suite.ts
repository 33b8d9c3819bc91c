/**
 * The test suite's cost: `npm test`'s test command (the part after its build: `node --test …`, read
 * from package.json), run once with CI=true, its wall time and its CPU (user + system of every
 * process it started and waited for, from bash's `times`; the test run's shared workers and its
 * Chromium are reaped at its end, so they count). Prints one JSON line.
 *   node bench/suite.ts            (build first: npm run build)
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface SuiteRow { name: string; wallMs: number; cpuMs: number; tests: number; failed: number; exit: number }

/** `node --test …` as npm test runs it, from package.json (the Node check and the build left out). */
export function testCommand(): string {
  const script: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.test;
  const at = script.indexOf('node --test');
  if (at < 0) throw new Error('package.json\'s test script has no `node --test` command');
  return script.slice(at);
}

const seconds = (text: string) => {
  const m = /^(\d+)m([\d.]+)s$/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
};

export async function benchSuite(): Promise<SuiteRow> {
  const command = `${testCommand()} --test-reporter=spec; rc=$?; times; exit $rc`;
  const t0 = performance.now();
  const child = spawn('bash', ['-c', command], { cwd: root, env: { ...process.env, CI: 'true', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => (out = (out + d).slice(-20_000)));
  const exit = await new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
  const wallMs = performance.now() - t0;
  // `times`: the shell's own user and system time, then its children's.
  const lines = out.trimEnd().split('\n');
  const [user, system] = (lines.at(-1) ?? '').trim().split(/\s+/).map(seconds);
  const count = (label: string) => Number(new RegExp(`^\\S*\\s*${label} (\\d+)$`, 'm').exec(out)?.[1] ?? NaN);
  return { name: 'npm test (its test command, after the build)', wallMs, cpuMs: ((user ?? NaN) + (system ?? NaN)) * 1000, tests: count('tests'), failed: count('fail'), exit };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(JSON.stringify(await benchSuite()));
