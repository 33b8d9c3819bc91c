// Preloaded into a benchmarked obtpp (`node --import ./rss-probe.mjs …`): at exit, writes the
// process's peak RSS (KiB, getrusage) and its CPU (user + system, ms) to OBTPP_BENCH_USAGE_FILE.
import { writeFileSync } from 'node:fs';

const file = process.env.OBTPP_BENCH_USAGE_FILE;
if (file) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ maxRssKiB: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 }));
  });
}
