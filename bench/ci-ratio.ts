/**
 * The test suite against the default run, on the machine CI ran it on (issue 37: `npm test` wall at
 * most 45 times the default `obtpp conform`, CPU at most 75 times). It judges nothing: a figure
 * that misses its goal is printed as such, and CI's verdict stays the tests'.
 *
 * R, the default run's wall, is measured around the suite: three runs just before it, three just
 * after, and R is the median of the six. This machine's speed drifts within minutes (around one
 * whole run of the suite here, R read 6.44 s before it and 5.84 s after it), so three runs on one
 * side of a five-minute suite measure the machine at another moment than the suite's; the six
 * around it are the nearest estimate of the machine the suite ran on.
 *   node bench/ci-ratio.ts --reference FILE     before npm test: three default runs, their walls to FILE
 *   node bench/ci-ratio.ts START_S END_S "TIMES_BEFORE" "TIMES_AFTER" [BUSY_BEFORE_S BUSY_AFTER_S [FILE]]
 * (TIMES_*: the children's line of bash's `times`, e.g. `0m12.340s 0m3.210s`; BUSY_*: the machine's
 * busy CPU seconds from /proc/stat, where it has one, else empty; FILE: the runs before, when they
 * were measured.) bash's times counts only the processes the shell's own children reaped:
 * Chromium's renderers, which the browser leaves to init when it exits, are not in it, and the
 * machine's count is. On a 2-core machine that the suite keeps busy, the wall is about half the
 * machine's count.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { benchConform } from './conform.ts';
import { stats } from './stats.ts';

const args = process.argv.slice(2);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
if (args[0] === '--reference') {
  const before = benchConform('default', 3);
  writeFileSync(args[1]!, JSON.stringify({ timesMs: before.timesMs }));
  console.log(`ci: the default obtpp conform before the tests: ${s(before.medianMs)} (median of 3: ${before.timesMs.map(s).join(', ')})`);
  process.exit(0);
}
const [start, end, before, after, busyBefore, busyAfter, referenceFile] = args;
const seconds = (text: string) => {
  const m = /^(\d+)m([\d.]+)s$/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
};
const cpu = (line = '') => line.trim().split(/\s+/).map(seconds).reduce((a, b) => a + b, 0);
const wallS = Number(end) - Number(start);
const cpuS = cpu(after) - cpu(before);
const afterRuns = benchConform('default', 3).timesMs;
let beforeRuns: number[] = [];
try {
  if (referenceFile) beforeRuns = (JSON.parse(readFileSync(referenceFile, 'utf8')) as { timesMs: number[] }).timesMs;
} catch {
  // Not measured before the tests (that run failed): R is the three after.
}
const R = stats([...beforeRuns, ...afterRuns]).medianMs / 1000;
const how = beforeRuns.length
  ? `median of 6: 3 before the tests, median ${s(stats(beforeRuns).medianMs)}, and 3 after, median ${s(stats(afterRuns).medianMs)}`
  : 'median of 3, after the tests';
const holds = (ratio: number, goal: number) => `${ratio.toFixed(1)}× (goal ≤ ${goal}×: ${ratio <= goal ? 'holds' : 'MISSED'})`;
console.log(
  `ci: npm test took ${wallS.toFixed(0)} s wall and ${cpuS.toFixed(0)} s CPU (bash's times: the processes it reaped); ` +
    `the default obtpp conform here: ${R.toFixed(2)} s (${how}); wall ${holds(wallS / R, 45)}, CPU ${holds(cpuS / R, 75)}`,
);
const machineS = Number(busyAfter) - Number(busyBefore);
if (busyBefore && busyAfter && Number.isFinite(machineS) && machineS > 0) {
  console.log(`ci: the whole machine was busy ${machineS.toFixed(0)} s of CPU meanwhile (/proc/stat; Chromium's renderers included, which times misses): ${(machineS / R).toFixed(1)}× R`);
}
