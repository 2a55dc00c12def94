import { clientKey, isOwnerLoopback } from './client-address.js';

export interface StreamLimits {
  /** Streaming connections (SSE or WebSocket) open at most from one client address; none for the owner's loopback. */
  maxStreamsPerAddress: number;
  /** Streaming connections open at most with one access token, wherever they come from. */
  maxStreamsPerToken: number;
  /** Streaming connections without a token open at most, all addresses but the owner's loopback together. */
  maxAnonymousStreams: number;
}

/**
 * Places for streaming connections, which stay open for hours: per client address, per token, and
 * for anonymous ones all together, so that the public streams cannot take the connections that
 * logged-in clients need.
 */
export class StreamBudget {
  private readonly counts = new Map<string, number>();

  constructor(private readonly limits: StreamLimits) {}

  /**
   * Takes a place for one streaming connection from `address` (with `token` when it has one): a
   * function that gives it back (calling it again does nothing), or undefined when a limit is reached.
   */
  take(address: string | undefined, token: string | undefined): (() => void) | undefined {
    const keys: [string, number][] = [];
    if (token) keys.push([`token ${token}`, this.limits.maxStreamsPerToken]);
    if (!isOwnerLoopback(address)) {
      keys.push([`address ${clientKey(address)}`, this.limits.maxStreamsPerAddress]);
      if (!token) keys.push(['anonymous', this.limits.maxAnonymousStreams]);
    }
    if (keys.some(([key, max]) => (this.counts.get(key) ?? 0) >= max)) return undefined;
    for (const [key] of keys) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      for (const [key] of keys) {
        const left = (this.counts.get(key) ?? 1) - 1;
        if (left > 0) this.counts.set(key, left);
        else this.counts.delete(key);
      }
    };
  }
}
