import { homedir } from 'node:os';
import { join } from 'node:path';

/** The platform's per-user application data directory for Hearth. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.HEARTH_DATA) return env.HEARTH_DATA;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Hearth');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Hearth');
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'hearth');
}

export const DEFAULT_PORT = 8420;
export const DEFAULT_HOST = '127.0.0.1';
