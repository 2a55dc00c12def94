import { createHub, type Hub, type Logger } from '../../server/hub.js';
import { LOOPBACK_HOST, type Interfaces, type LanState } from './lan.js';
import type { SettingsStore } from './settings.js';

export interface DesktopHub {
  hub: Hub;
  lan: LanState;
}

/**
 * Starts the hub for the desktop app: on loopback, on the port used last time when it is still
 * free (so addresses handed to phones stay valid) or else on any free port, then with LAN access
 * if the owner turned it on (from the tray menu or Settings; the choice is kept in the app's
 * settings). The port in use is remembered.
 */
export async function startDesktopHub(opts: { dataDir: string; settings: SettingsStore; log?: Logger; interfaces?: Interfaces }): Promise<DesktopHub> {
  const saved = opts.settings.get();
  const hub = await createHub({
    dataDir: opts.dataDir,
    host: LOOPBACK_HOST,
    port: saved.port,
    log: opts.log,
    lanSwitch: {
      remembered: () => opts.settings.get().lanAccess,
      remember: (on) => opts.settings.update({ lanAccess: on }),
      interfaces: opts.interfaces && (() => opts.interfaces!),
    },
  });
  try {
    await hub.listen();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || saved.port === 0) {
      await hub.close();
      throw err;
    }
    opts.log?.warn(`port ${saved.port} is taken; choosing another one`);
    // rebind, not listen: it also discards the server that failed to bind.
    await hub.rebind({ host: LOOPBACK_HOST, port: 0 });
  }
  const lan = saved.lanAccess ? await hub.lan!.set(true) : { on: false };
  if (hub.port !== saved.port) opts.settings.update({ port: hub.port });
  return { hub, lan };
}
