import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

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

/** What moving between loopback and the LAN needs of a hub. */
export interface Rebindable {
  readonly host: string;
  readonly port: number;
  readonly baseUrl: string;
  rebind(opts: { host: string; port?: number; baseUrl?: string }): Promise<string>;
}

export const NO_NETWORK = 'No network connection found: Hearth stays reachable from this computer only.';

/** The base URL the hub has on the LAN at this address, on the port it uses now. */
export function lanUrl(address: string, port: number): string {
  return `http://${address}:${port}`;
}

/**
 * Moves a running hub to all interfaces (with a base URL other devices can reach) or back to
 * loopback, keeping its port. The database and its sessions are untouched; only the listening
 * socket changes, and requests in flight finish first (hub.rebind).
 */
export async function applyLanAccess(hub: Rebindable, wanted: boolean, interfaces?: Interfaces): Promise<LanState> {
  const port = hub.port;
  if (wanted) {
    const address = lanAddress(interfaces);
    if (!address) {
      if (hub.host !== LOOPBACK_HOST) await hub.rebind({ host: LOOPBACK_HOST, port });
      return { on: false, problem: NO_NETWORK };
    }
    try {
      const url = await hub.rebind({ host: ALL_INTERFACES, port, baseUrl: lanUrl(address, port) });
      return { on: true, url };
    } catch (err) {
      await hub.rebind({ host: LOOPBACK_HOST, port });
      return { on: false, problem: `LAN access failed (${(err as Error).message}): Hearth stays reachable from this computer only.` };
    }
  }
  if (hub.host !== LOOPBACK_HOST || new URL(hub.baseUrl).hostname !== LOOPBACK_HOST) await hub.rebind({ host: LOOPBACK_HOST, port });
  return { on: false };
}

/** How a hub that may move itself keeps the owner's choice between starts, and whom it tells. */
export interface LanSwitchOptions {
  /** The choice kept from last time (the desktop app's settings, or the hub's database). */
  remembered(): boolean;
  /** Keeps the choice for the next start. */
  remember(on: boolean): void;
  /** The machine's network interfaces (tests give made-up ones). */
  interfaces?(): Interfaces;
}

/**
 * LAN access that the owner turns on and off while the hub runs (the desktop app's menu,
 * Settings → Network access): one change at a time, remembered for the next start, and told to
 * whoever watches (the desktop app's tray).
 */
export class LanSwitch {
  private queue: Promise<unknown> = Promise.resolve();
  private problem: string | undefined;
  private readonly watchers: ((state: LanState) => void)[] = [];

  constructor(
    private readonly hub: Rebindable,
    private readonly options: LanSwitchOptions,
  ) {}

  /** Whether the hub is on the LAN now, at which address, or why it is not although wanted. */
  state(): LanState {
    const on = this.hub.host !== LOOPBACK_HOST;
    if (on) return { on, url: this.hub.baseUrl };
    return this.problem ? { on, problem: this.problem } : { on };
  }

  /** The address the hub would have on the LAN now; undefined without a network. */
  lanUrl(): string | undefined {
    const address = lanAddress(this.options.interfaces?.());
    return address && lanUrl(address, this.hub.port);
  }

  /** The owner's choice from last time. */
  remembered(): boolean {
    return this.options.remembered();
  }

  /** Calls `watcher` after every change, whoever made it. */
  onChange(watcher: (state: LanState) => void): void {
    this.watchers.push(watcher);
  }

  /** Turns LAN access on or off, after any change under way, and remembers the choice. */
  set(on: boolean): Promise<LanState> {
    const change = this.queue.then(async () => {
      this.options.remember(on);
      const state = await applyLanAccess(this.hub, on, this.options.interfaces?.());
      this.problem = state.problem;
      for (const watch of this.watchers) watch(state);
      return state;
    });
    this.queue = change.catch(() => undefined);
    return change;
  }
}
