/**
 * The test suite against the default run, on the machine CI ran it on (issue 37: `npm test` wall at
 * most 45 times the default `obtpp conform`, CPU at most 75 times). `.ci/run` calls it after
 * `npm test` with the wall clock and bash's `times` taken before and after; it measures the default
 * run (median of 3, as `npm run bench` does) and prints one line. It judges nothing: a figure
 * that misses its goal is printed as such, and CI's verdict stays the tests'.
 *   node bench/ci-ratio.ts START_S END_S "TIMES_BEFORE" "TIMES_AFTER" [BUSY_BEFORE_S BUSY_AFTER_S]
 * (TIMES_*: the children's line of bash's `times`, e.g. `0m12.340s 0m3.210s`; BUSY_*: the machine's
 * busy CPU seconds from /proc/stat, where it has one.) bash's times counts only the processes the
 * shell's own children reaped: Chromium's renderers, which the browser leaves to init when it
 * exits, are not in it, and the machine's count is. On a 2-core machine that the suite keeps
 * busy, the wall is about half the machine's count.
 */
import { benchConform } from './conform.ts';

const [start, end, before, after, busyBefore, busyAfter] = process.argv.slice(2);
const seconds = (text: string) => {
  const m = /^(\d+)m([\d.]+)s$/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
};
const cpu = (line = '') => line.trim().split(/\s+/).map(seconds).reduce((a, b) => a + b, 0);
const wallS = Number(end) - Number(start);
const cpuS = cpu(after) - cpu(before);
const R = benchConform('default', 3).medianMs / 1000;
const holds = (ratio: number, goal: number) => `${ratio.toFixed(1)}× (goal ≤ ${goal}×: ${ratio <= goal ? 'holds' : 'MISSED'})`;
console.log(
  `ci: npm test took ${wallS.toFixed(0)} s wall and ${cpuS.toFixed(0)} s CPU (bash's times: the processes it reaped); ` +
    `the default obtpp conform here: ${R.toFixed(2)} s (median of 3); wall ${holds(wallS / R, 45)}, CPU ${holds(cpuS / R, 75)}`,
);
const machineS = Number(busyAfter) - Number(busyBefore);
if (busyBefore && busyAfter && Number.isFinite(machineS) && machineS > 0) {
  console.log(`ci: the whole machine was busy ${machineS.toFixed(0)} s of CPU meanwhile (/proc/stat; Chromium's renderers included, which times misses): ${(machineS / R).toFixed(1)}× R`);
}
