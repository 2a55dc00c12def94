import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The one data directory every way of starting Hearth uses (the desktop app, `npm start`'s headless
 * fallback, `hearth`): HEARTH_DATA, else the platform's per-user data directory.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.HEARTH_DATA) return env.HEARTH_DATA;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Hearth');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Hearth');
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'hearth');
}

/**
 * Where the desktop app and its headless fallback kept the hub before they used defaultDataDir:
 * `hub` in Electron's user-data folder for Hearth (app.getPath('appData')/Hearth).
 */
export function olderDesktopDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const appData =
    platform === 'win32'
      ? (env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'))
      : platform === 'darwin'
        ? join(homedir(), 'Library', 'Application Support')
        : env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(appData, 'Hearth', 'hub');
}

export const DEFAULT_PORT = 8420;
export const DEFAULT_HOST = '127.0.0.1';
