import { readFileSync } from 'node:fs';

/** Linux counts process CPU time in clock ticks of 10 ms (CLK_TCK = 100 on every common kernel). */
const TICK_MS = 10;

/**
 * CPU time (user + system, all threads) a process has used so far, in ms, from /proc; NaN where
 * there is no /proc. CPU time is what an answer costs whatever else runs on the machine, which
 * wall-clock rates on a shared machine are not.
 */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), from field 3 on: utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return Number.NaN;
  }
}

/** CPU time of this process in ms (microsecond resolution). */
export function ownCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
