import { isIPv6 } from 'node:net';
import { HttpError } from './errors.js';

export interface RateLimitOptions {
  /** Events one client may cause within the window. */
  max: number;
  windowMs: number;
}

/**
 * The key a client address is counted under. An IPv6 client is counted by its /64, the network one
 * subscriber gets: a host there can pick any of its 2^64 addresses, one for each request.
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const bare = address.replace(/%.*$/, '');
  if (!isIPv6(bare)) return address;
  const groups = (part: string) => (part ? part.split(':') : []);
  const [head, tail] = bare.includes('::') ? (bare.split('::') as [string, string]) : [bare, undefined];
  const headGroups = groups(head);
  // An embedded IPv4 address (::ffff:a.b.c.d, 64:ff9b::a.b.c.d) fills two groups.
  const width = (gs: string[]) => gs.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const tailGroups = tail === undefined ? [] : groups(tail);
  const all = [...headGroups, ...Array<string>(8 - width(headGroups) - width(tailGroups)).fill('0'), ...tailGroups];
  return `${all.slice(0, 4).map((g) => Number.parseInt(g, 16).toString(16)).join(':')}::/64`;
}

/**
 * Counts what each client address did within a sliding window (IPv6 by /64, see clientKey) and
 * refuses more than `max` with 429 and Retry-After.
 */
export class RateLimit {
  private events = new Map<string, number[]>();

  constructor(
    private readonly options: RateLimitOptions,
    private readonly message: string,
  ) {}

  private recent(key: string, now: number): number[] {
    const list = (this.events.get(key) ?? []).filter((t) => now - t < this.options.windowMs);
    if (list.length) this.events.set(key, list);
    else this.events.delete(key);
    return list;
  }

  /** Throws 429 when this client used up what the window allows. */
  check(address: string): void {
    const now = Date.now();
    const list = this.recent(clientKey(address), now);
    if (list.length >= this.options.max) {
      const retry = Math.max(1, Math.ceil((list[0]! + this.options.windowMs - now) / 1000));
      throw new HttpError(429, this.message, { 'Retry-After': String(retry) });
    }
  }

  /** Counts one event of this client. */
  count(address: string): void {
    const key = clientKey(address);
    const now = Date.now();
    const list = this.recent(key, now);
    list.push(now);
    this.events.set(key, list);
    // Memory stays bounded whatever the number of clients; the oldest key goes first.
    if (this.events.size > 10000) this.events.delete(this.events.keys().next().value!);
  }
}
