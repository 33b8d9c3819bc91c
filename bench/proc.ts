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

/**
 * The CPU ms used so far by the processes under `root` (itself excluded), summed by Chromium's
 * process type (`--type=renderer`, `gpu-process`, a utility's sub-type such as the network
 * service; `browser` for the main process). Processes that ended are not counted.
 */
export function cpuMsByType(root: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const [pid, ms] of treeCpuMs(root)) {
    if (pid === root) continue;
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    } catch {
      continue;
    }
    const type = /--type=([\w-]+)/.exec(cmd)?.[1];
    const sub = /--utility-sub-type=([\w.]+)/.exec(cmd)?.[1];
    const name = type === 'utility' && sub ? sub.replace(/^.*\.mojom\./, '') : type ?? (/^\/bin\/sh /.test(cmd) ? 'launcher' : 'browser');
    out.set(name, (out.get(name) ?? 0) + ms);
  }
  return out;
}
