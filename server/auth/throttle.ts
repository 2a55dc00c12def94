import { HttpError } from '../http/errors.js';

export interface ThrottleOptions {
  /** Failed logins allowed from one client address within the window. */
  maxFailures: number;
  windowMs: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = { maxFailures: 20, windowMs: 10 * 60 * 1000 };

/** Counts failed logins per client address and refuses further attempts once too many failed. */
export class LoginThrottle {
  private failures = new Map<string, number[]>();

  constructor(private readonly options: ThrottleOptions = DEFAULT_THROTTLE) {}

  private recent(address: string, now: number): number[] {
    const list = (this.failures.get(address) ?? []).filter((t) => now - t < this.options.windowMs);
    if (list.length) this.failures.set(address, list);
    else this.failures.delete(address);
    return list;
  }

  /** Throws 429 when this address has failed too often recently. */
  check(address: string): void {
    const now = Date.now();
    const list = this.recent(address, now);
    if (list.length >= this.options.maxFailures) {
      const retry = Math.ceil((list[0]! + this.options.windowMs - now) / 1000);
      throw new HttpError(429, 'Too many failed logins from this address; try again later', { 'Retry-After': String(retry) });
    }
  }

  fail(address: string): void {
    const now = Date.now();
    const list = this.recent(address, now);
    list.push(now);
    this.failures.set(address, list);
    if (this.failures.size > 10000) this.failures.delete(this.failures.keys().next().value!);
  }

  succeed(address: string): void {
    this.failures.delete(address);
  }
}
