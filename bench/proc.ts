/** CPU time of a process tree from /proc (Linux only), for the benchmarks that measure Chromium. */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ 100 on Linux

/**
 * The CPU ms (user + system) used so far by `root` and by every process under it, by pid. A
 * process that ended is no longer listed: callers that need its share keep the last value seen.
 */
export function treeCpuMs(root: number): Map<number, number> {
  const procs = new Map<number, { ppid: number; ms: number }>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const s = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      procs.set(Number(d), { ppid: Number(f[1]), ms: (Number(f[11]) + Number(f[12])) * TICK_MS });
    } catch {
      // gone meanwhile
    }
  }
  const mine = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, p] of procs) if (!mine.has(pid) && mine.has(p.ppid)) (mine.add(pid), (grew = true));
  }
  const out = new Map<number, number>();
  for (const pid of mine) if (procs.has(pid)) out.set(pid, procs.get(pid)!.ms);
  return out;
}
