import { BackupError } from './errors.js';

/** The database copy's name in a backup's folder, in backups of format 1 (made before it was kept in chunks). */
export const DATABASE_OBJECT = 'hearth.db';
export const MANIFEST_OBJECT = 'manifest.json';

/** An attachment file in a backup: its key (its name in the store), size and SHA-256. */
export type ManifestFile = [key: string, size: number, sha256: string];
/** A piece of the database copy in a backup: its name (a hash of its bytes, see chunks.ts) and size. */
export type ManifestChunk = [name: string, size: number];

/**
 * What one backup holds, with a checksum of everything. A backup is complete when its manifest is
 * in the target: the manifest is written last, after every object it names.
 */
export interface Manifest {
  /** 2: the database copy in chunks shared by all the backups of a target; 1: a whole hearth.db in the backup's folder. */
  format: 1 | 2;
  id: string;
  /** When the database was copied (ISO 8601). */
  created: string;
  hearth: { version: string; schema: number };
  /** The whole database copy's size and SHA-256; its chunks in order (format 2). */
  database: { size: number; sha256: string; chunks?: ManifestChunk[] };
  files: ManifestFile[];
  /** What this run copied: the rest was in the target already (databaseBytes: format 2). */
  copied: { files: number; bytes: number; databaseBytes?: number };
}

export const backupFolder = (id: string) => `backups/${id}/`;
export const fileObject = (key: string) => `files/${key.slice(0, 2)}/${key}`;
export const chunkObject = (name: string) => `chunks/${name.slice(0, 2)}/${name}`;
/** The name of a 'chunks/ab/<name>' object, or undefined. */
export function nameOfChunkObject(object: string): string | undefined {
  const m = /^chunks\/[0-9a-f]{2}\/([0-9a-f]{64})$/.exec(object);
  return m ? m[1] : undefined;
}
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
  const chunks = m?.database?.chunks;
  const ok =
    m &&
    (m.format === 1 ? chunks === undefined : m.format === 2 && Array.isArray(chunks) && chunks.every((c) => Array.isArray(c) && /^[0-9a-f]{64}$/.test(String(c[0])) && typeof c[1] === 'number') && chunks.reduce((sum, c) => sum + c[1], 0) === m.database.size) &&
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
