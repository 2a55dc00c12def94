import { readFileSync } from 'node:fs';

/** Resident set size of a process in MB (10^6 bytes; Linux /proc), or NaN when it cannot be read. */
export function rssMB(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? (Number(m[1]) * 1024) / 1e6 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export interface RssSummary {
  peakMB: number;
  meanMB: number;
  startMB: number;
  endMB: number;
}

/** Samples a process's RSS at a fixed interval until stopped. */
export class RssSampler {
  private readonly samples: number[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pid: number, intervalMs = 25) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  private sample(): void {
    const v = rssMB(this.pid);
    if (!Number.isNaN(v)) this.samples.push(v);
  }

  stop(): RssSummary {
    clearInterval(this.timer);
    this.sample();
    const s = this.samples.length ? this.samples : [Number.NaN];
    return {
      peakMB: round1(Math.max(...s)),
      meanMB: round1(s.reduce((a, b) => a + b, 0) / s.length),
      startMB: round1(s[0]!),
      endMB: round1(s[s.length - 1]!),
    };
  }
}

export function round1(n: number): number {
  return Math.round(n * 10) / 10;
}
