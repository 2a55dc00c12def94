import type { Socket } from 'node:net';
import { clientKey, isOwnerLoopback } from './client-address.js';

export interface ConnectionBudgetLimits {
  /** Open connections at most, all clients together (the server's own cap). */
  maxConnections: number;
  /** Open connections at most from one client address (an IPv6 /64); the owner's loopback has none. */
  maxConnectionsPerAddress: number;
  /** Connections only the owner's loopback (127.0.0.1, ::1) may use: the others share the rest. */
  loopbackReserve: number;
}

/**
 * Counts open connections per client address when they are accepted, and closes at once those
 * beyond the client's share: one client (or many on the LAN together) cannot take the places the
 * owner's window and other clients need. Behind a reverse proxy every connection is the proxy's
 * (loopback), which has the whole budget; the proxy limits its clients.
 */
export class ConnectionBudget {
  private readonly perAddress = new Map<string, number>();
  private others = 0;

  constructor(
    private readonly limits: ConnectionBudgetLimits,
    private readonly onRefused: (address: string, reason: string) => void,
  ) {}

  /** For the server's 'connection' event: keeps the socket counted while it is open, or destroys it. */
  admit(socket: Socket): void {
    const address = socket.remoteAddress;
    if (isOwnerLoopback(address)) return;
    const key = clientKey(address);
    const open = this.perAddress.get(key) ?? 0;
    const othersCap = Math.max(0, this.limits.maxConnections - this.limits.loopbackReserve);
    let reason: string | undefined;
    if (!key) reason = 'its address is unknown';
    else if (open >= this.limits.maxConnectionsPerAddress) reason = `${open} connections are open from that address`;
    else if (this.others >= othersCap) reason = `${this.others} connections from other addresses than loopback are open`;
    if (reason) {
      socket.destroy();
      this.onRefused(key, reason);
      return;
    }
    this.perAddress.set(key, open + 1);
    this.others++;
    socket.once('close', () => {
      this.others--;
      const left = (this.perAddress.get(key) ?? 1) - 1;
      if (left > 0) this.perAddress.set(key, left);
      else this.perAddress.delete(key);
    });
  }
}
