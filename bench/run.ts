/**
 * `npm run bench`: every benchmark of obtpp on this machine, in one run, each figure beside the
 * default `obtpp conform` (R, the reference: the embedded sandbox, variants A+B, median of 3)
 * measured in the same run, so that the goals are ratios that hold on any machine.
 *
 *   npm run bench                         everything (the test suite included: minutes)
 *   npm run bench -- --no-suite           without the test suite
 *   npm run bench -- --against REF        also the default run of commit REF beside this one's
 *
 * Each benchmark runs as its own process (clean start, its own sandbox); the conformance layouts
 * are run in turns, three rounds, so that a busy moment of the machine falls on all of them. The
 * test suite, minutes long, is held against R around it: R's three runs before it and three just
 * after it, the median of the six.
 */
import { execFileSync } from 'node:child_process';
import { cpus, totalmem, loadavg } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchConform, LAYOUTS, ROUNDS, type ConformRow } from './conform.ts';
import { stats } from './stats.ts';

const here = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const withSuite = !argv.includes('--no-suite');
const against = argv.includes('--against') ? argv[argv.indexOf('--against') + 1] : undefined;
const run = (script: string, ...args: string[]) =>
  execFileSync(process.execPath, [join(here, script), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
    .split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));

const loadAtStart = loadavg()[0]!;
const [floor, help] = run('cold-start.ts', '15');
const [authorisation] = run('authorise.ts', '15', '--json');
const exchange = run('exchange.ts', '200');
const cli = run('cli.ts', '--json');

// Three rounds of every layout, in turns.
const rounds: Record<string, ConformRow[]> = {};
for (let i = 0; i < 3; i++) for (const layout of ROUNDS) (rounds[layout] ??= []).push(benchConform(layout, 1));
const once = Object.keys(LAYOUTS).filter((l) => !ROUNDS.includes(l)).map((l) => benchConform(l, 1));
const layout = (name: string) => {
  const rows = rounds[name]!;
  const s = stats(rows.map((r) => r.medianMs));
  return { ...rows[0]!, ...s, peakRssMiB: Math.max(...rows.map((r) => r.peakRssMiB)), cpuMs: stats(rows.map((r) => r.cpuMs)).medianMs };
};
const R = layout('default');
const suite = withSuite ? await (await import('./suite.ts')).benchSuite() : undefined;
// The suite's reference: R's three rounds before it and three default runs just after it, the
// median of the six (the machine's speed drifts within minutes; bench/ci-ratio.ts says more).
const afterSuite = suite ? benchConform('default', 3).timesMs : [];
const Rsuite = stats([...rounds.default!.flatMap((r) => r.timesMs), ...afterSuite]);
const compared = against ? (await import('./compare.ts')).compareWith(against) : undefined;

const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 10 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(2)} ms`);
const x = (ratio: number) => `${ratio.toFixed(2)} ×`;
const { PsuBrowser } = await import('../src/psu/index.ts');
const executable = PsuBrowser.executablePath();
let chromium = 'no Chromium found';
try {
  if (executable) chromium = `${execFileSync(executable, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()} (${executable})`;
} catch {
  chromium = `${executable} (its --version failed)`;
}
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${chromium}`);
console.log(`floor (\`node -e 0\`): ${fmt(floor.medianMs)}; R, the reference (default \`obtpp conform\`, median of 3): ${fmt(R.medianMs)}; load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end`);
if (suite) console.log(`the suite's reference, R around it (the 3 runs of R before it and 3 just after it, median ${fmt(stats(afterSuite).medianMs)}): ${fmt(Rsuite.medianMs)}, the median of the six`);
console.log('');
console.log('| benchmark | runs | median | min | max | ratio | goal | holds |');
console.log('|---|---|---|---|---|---|---|---|');
const row = (name: string, r: { runs: number; medianMs: number; minMs: number; maxMs: number }, ratio: string, goal = '', holds?: boolean) =>
  console.log(`| ${name} | ${r.runs} | ${fmt(r.medianMs)} | ${fmt(r.minMs)} | ${fmt(r.maxMs)} | ${ratio} | ${goal} | ${holds === undefined ? '' : holds ? 'yes' : '**no**'} |`);
row(floor.name, floor, '');
row('`obtpp --help` (cold start)', help, `${x(help.medianMs / floor.medianMs)} floor`, '≤ 3 × floor', help.medianMs <= 3 * floor.medianMs);
row('PSU authorisation, one browser reused', authorisation, `${(authorisation.medianMs / R.medianMs).toFixed(3)} × R`, '≤ 0.06 × R', authorisation.medianMs <= 0.06 * R.medianMs);
for (const e of exchange) row(e.name, e, '');
for (const c of cli) row(c.name, c, `${(c.medianMs / R.medianMs).toFixed(3)} × R`);
for (const name of ROUNDS) {
  const l = layout(name);
  const goal = name === 'default' ? 'R; peak RSS ≤ 300 MiB' : name === 'berlin-group' ? '≤ 1.5 × R; peak RSS ≤ 300 MiB' : '≤ 2 × R; peak RSS ≤ 300 MiB';
  const limit = name === 'default' ? Infinity : name === 'berlin-group' ? 1.5 : 2;
  row(`${l.name} (peak RSS ${l.peakRssMiB.toFixed(0)} MiB, obtpp's own CPU ${fmt(l.cpuMs)})`, l, x(l.medianMs / R.medianMs), goal, l.medianMs <= limit * R.medianMs && l.peakRssMiB <= 300);
}
for (const o of once) {
  // FAPI 1.0's modules in seconds (issue 38); FAPI 2.0's with the module that must wait out a code's 60 seconds are bounded below by it.
  const goal = o.layout === 'oidf-fapi2-all' ? '≥ 62 s (the module waits)' : '≤ 2 × R';
  row(`${o.name} (peak RSS ${o.peakRssMiB.toFixed(0)} MiB)`, o, x(o.medianMs / R.medianMs), goal, o.layout === 'oidf-fapi2-all' ? undefined : o.medianMs <= 2 * R.medianMs);
}
if (suite) {
  const ok = suite.exit === 0 && suite.failed === 0;
  console.log(`| ${suite.name}: ${suite.tests} tests, ${suite.failed} failed, exit ${suite.exit} — wall | 1 | ${fmt(suite.wallMs)} | | | ${x(suite.wallMs / Rsuite.medianMs)} R around it | ≤ 45 × R | ${ok && suite.wallMs <= 45 * Rsuite.medianMs ? 'yes' : '**no**'} |`);
  console.log(`| the same — CPU (user + system of all its processes, ${suite.cpuBy === 'cgroup' ? 'by a cgroup of its own' : 'by bash\'s times: Chromium\'s unreaped renderers left out'}) | 1 | ${fmt(suite.cpuMs)} | | | ${x(suite.cpuMs / Rsuite.medianMs)} R around it | ≤ 75 × R | ${ok && suite.cpuMs <= 75 * Rsuite.medianMs ? 'yes' : '**no**'} |`);
}
if (suite && suite.cpuBy === 'cgroup') console.log(`| the same — CPU of the processes it reaped (bash's \`times\`, as \`/usr/bin/time npm test\` counts) | 1 | ${fmt(suite.reapedCpuMs)} | | | ${x(suite.reapedCpuMs / Rsuite.medianMs)} R around it | | |`);
if (compared) console.log(`| ${compared.name} | ${compared.runs} each | ${fmt(compared.headMedianMs)} | | | ${x(compared.ratio)} ${compared.ref} (${fmt(compared.refMedianMs)}) | | |`);
// Where the test suite's time goes: its ten costliest files (scripts/test-times.mjs).
if (suite?.byFile) {
  const lines = suite.byFile.trim().split('\n');
  console.log('');
  console.log('Where the test suite\'s time goes, its ten costliest files (top-level test time; two files run at once):');
  console.log('');
  console.log([...lines.slice(0, 12), ...lines.slice(-1)].join('\n'));
}
// Where one conformance run's CPU goes (bench/profile.ts).
console.log('');
console.log(execFileSync(process.execPath, [join(here, 'profile.ts')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim());
