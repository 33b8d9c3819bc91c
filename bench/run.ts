/**
 * `npm run bench`: every benchmark, one table. Each runs as its own process (clean start, its own
 * sandbox); each row is a median with min and max over several runs.
 *   node bench/run.ts
 */
import { execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const run = (script: string, ...args: string[]) =>
  execFileSync(process.execPath, [join(here, script), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
    .split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));

const rows = [
  ...run('cold-start.ts', '15'),
  ...run('authorise.ts', '15', '--json'),
  ...run('contexts.ts', '15', '--json'),
  ...run('exchange.ts', '200'),
  ...(await import('node:fs')).existsSync(join(here, 'cli.ts')) ? run('cli.ts', '--json') : [],
  ...run('conform.ts', '3'),
];
const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 10 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(2)} ms`);
// The browser the runs used: the one obtpp picks for a headless run (src/psu/executable.ts).
const { PsuBrowser } = await import('../src/psu/index.ts');
const executable = PsuBrowser.executablePath();
let chromium = 'no Chromium found';
try {
  if (executable) chromium = `${execFileSync(executable, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()} (${executable})`;
} catch {
  chromium = `${executable} (its --version failed)`;
}
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${chromium}`);
console.log('');
console.log('| benchmark | runs | median | min | max | goal | note |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.name} | ${r.runs} | ${fmt(r.medianMs)} | ${fmt(r.minMs)} | ${fmt(r.maxMs)} | ${r.goal ?? ''} | ${r.note ?? ''} |`);
// Where one conformance run's CPU goes (bench/profile.ts), and how busy the machine was meanwhile.
console.log('');
console.log(execFileSync(process.execPath, [join(here, 'profile.ts')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim());
console.log('');
console.log(`load average at the end: ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(', ')}`);
