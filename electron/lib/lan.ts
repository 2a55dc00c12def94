import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import type { Hub } from '../../server/hub.js';

export const LOOPBACK_HOST = '127.0.0.1';
export const ALL_INTERFACES = '0.0.0.0';

export type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

/** The first non-internal IPv4 address of this machine: what other devices on the LAN can reach. */
export function lanAddress(interfaces: Interfaces = networkInterfaces()): string | undefined {
  for (const list of Object.values(interfaces)) {
    for (const info of list ?? []) {
      // Node 18.0–18.3 reported family as a number.
      const v4 = info.family === 'IPv4' || (info.family as unknown) === 4;
      if (v4 && !info.internal && !info.address.startsWith('169.254.')) return info.address;
    }
  }
  return undefined;
}

export interface LanState {
  /** Whether the hub is listening on all interfaces now. */
  on: boolean;
  /** The address other devices use (only when on). */
  url?: string;
  /** Why LAN access could not be turned on. */
  problem?: string;
}

/**
 * Moves a running hub to all interfaces (with a base URL other devices can reach) or back to
 * loopback, keeping its port. The database and its sessions are untouched; only the listening
 * socket changes, and requests in flight finish first (hub.rebind).
 */
export async function applyLanAccess(hub: Hub, wanted: boolean, interfaces?: Interfaces): Promise<LanState> {
  const port = hub.port;
  if (wanted) {
    const address = lanAddress(interfaces);
    if (!address) {
      if (hub.host !== LOOPBACK_HOST) await hub.rebind({ host: LOOPBACK_HOST, port });
      return { on: false, problem: 'No network connection found: Hearth stays reachable from this computer only.' };
    }
    try {
      const url = await hub.rebind({ host: ALL_INTERFACES, port, baseUrl: `http://${address}:${port}` });
      return { on: true, url };
    } catch (err) {
      await hub.rebind({ host: LOOPBACK_HOST, port });
      return { on: false, problem: `LAN access failed (${(err as Error).message}): Hearth stays reachable from this computer only.` };
    }
  }
  if (hub.host !== LOOPBACK_HOST || new URL(hub.baseUrl).hostname !== LOOPBACK_HOST) await hub.rebind({ host: LOOPBACK_HOST, port });
  return { on: false };
}
