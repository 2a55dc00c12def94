import { readdirSync, readFileSync } from 'node:fs';

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

/** The command name (`comm`) of a process, or undefined when it has gone. */
function commandName(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * CPU time of every process whose command name matches, as one clock: a server made of many
 * processes (php-fpm workers, a database, a web server, workers started for queued jobs). The
 * processes are polled, so the time of one that exits is kept as last read; one that starts and
 * exits between two polls is missed.
 */
export class ProcessGroupCpu {
  /**
   * Per pid: the last CPU time read, and the time of earlier processes that had the pid (a pid is
   * reused once its process has gone). Processes that have exited stay counted.
   */
  private readonly seen = new Map<number, { last: number; earlier: number }>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly matches: (comm: string) => boolean, pollMs = 100) {
    this.poll();
    this.timer = setInterval(() => this.poll(), pollMs);
    this.timer.unref();
  }

  private poll(): void {
    for (const entry of readdirSync('/proc')) {
      const pid = Number(entry);
      if (!Number.isInteger(pid)) continue;
      const comm = commandName(pid);
      if (comm === undefined || !this.matches(comm)) continue;
      const ms = processCpuMs(pid);
      if (!Number.isFinite(ms)) continue;
      const s = this.seen.get(pid);
      if (!s) this.seen.set(pid, { last: ms, earlier: 0 });
      else {
        if (ms < s.last) s.earlier += s.last;
        s.last = ms;
      }
    }
  }

  /** CPU time of the group so far, in ms (compare two readings). */
  ms(): number {
    this.poll();
    let total = 0;
    for (const s of this.seen.values()) total += s.earlier + s.last;
    return total;
  }

  /** How many processes the group has had. */
  processes(): number {
    return this.seen.size;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
