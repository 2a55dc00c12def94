import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** What the desktop app remembers between launches (the hub's own data lives in its data directory). */
export interface DesktopSettings {
  /** LAN access wanted: the hub listens on all interfaces. */
  lanAccess: boolean;
  /** Port the hub used last time, so addresses given to other devices stay valid; 0 = none yet. */
  port: number;
}

export const DEFAULT_SETTINGS: Readonly<DesktopSettings> = Object.freeze({ lanAccess: false, port: 0 });

function validPort(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 65535;
}

/** Keeps only well-formed known fields; anything else falls back to the default. */
export function parseSettings(text: string | undefined): DesktopSettings {
  let raw: unknown;
  try {
    raw = text === undefined ? {} : JSON.parse(text);
  } catch {
    raw = {};
  }
  const o = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  return {
    lanAccess: typeof o.lanAccess === 'boolean' ? o.lanAccess : DEFAULT_SETTINGS.lanAccess,
    port: validPort(o.port) ? o.port : DEFAULT_SETTINGS.port,
  };
}

/** Settings in a small JSON file, replaced atomically so a crash never leaves half a file. */
export class SettingsStore {
  private current: DesktopSettings;

  constructor(readonly file: string) {
    let text: string | undefined;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    this.current = parseSettings(text);
  }

  get(): DesktopSettings {
    return { ...this.current };
  }

  update(patch: Partial<DesktopSettings>): DesktopSettings {
    const next = parseSettings(JSON.stringify({ ...this.current, ...patch }));
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(next, null, 2) + '\n', { mode: 0o600 });
    renameSync(tmp, this.file);
    this.current = next;
    return this.get();
  }
}
