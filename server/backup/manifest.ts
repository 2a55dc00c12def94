import { BackupError } from './errors.js';

/** The database copy's name in a backup's folder. */
export const DATABASE_OBJECT = 'hearth.db';
export const MANIFEST_OBJECT = 'manifest.json';

/** An attachment file in a backup: its key (its name in the store), size and SHA-256. */
export type ManifestFile = [key: string, size: number, sha256: string];

/**
 * What one backup holds, with a checksum of everything. A backup is complete when its manifest is
 * in the target: the manifest is written last, after every object it names.
 */
export interface Manifest {
  format: 1;
  id: string;
  /** When the database was copied (ISO 8601). */
  created: string;
  hearth: { version: string; schema: number };
  database: { size: number; sha256: string };
  files: ManifestFile[];
  /** What this run copied: the rest was in the target already. */
  copied: { files: number; bytes: number };
}

export const backupFolder = (id: string) => `backups/${id}/`;
export const fileObject = (key: string) => `files/${key.slice(0, 2)}/${key}`;
/** The key of a 'files/ab/<key>' object name, or undefined. */
export function keyOfFileObject(name: string): string | undefined {
  const m = /^files\/[0-9a-f]{2}\/([0-9a-f]{64})$/.exec(name);
  return m ? m[1] : undefined;
}

const ID = /^\d{8}-\d{6}(?:-\d+)?$/;

export function isBackupId(id: string): boolean {
  return ID.test(id);
}

/** A new backup's id: its time in UTC, sortable, with a counter when that second is taken. */
export function newBackupId(now: Date, taken: ReadonlySet<string>): string {
  const base = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

export function parseManifest(text: string, id: string): Manifest {
  let m: Manifest;
  try {
    m = JSON.parse(text) as Manifest;
  } catch {
    throw new BackupError(`the manifest of backup ${id} is damaged (not JSON)`);
  }
  const ok =
    m &&
    m.format === 1 &&
    m.id === id &&
    typeof m.created === 'string' &&
    typeof m.database?.sha256 === 'string' &&
    typeof m.database.size === 'number' &&
    Array.isArray(m.files) &&
    m.files.every((f) => Array.isArray(f) && /^[0-9a-f]{64}$/.test(String(f[0])) && typeof f[1] === 'number' && /^[0-9a-f]{64}$/.test(String(f[2])));
  if (!ok) throw new BackupError(`the manifest of backup ${id} is damaged (not a Hearth backup manifest)`);
  return m;
}

/** The total size of what a backup holds. */
export function backupSize(m: Manifest): number {
  return m.files.reduce((sum, f) => sum + f[1], m.database.size);
}
