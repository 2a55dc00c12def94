import type { Hub } from '../hub-context.js';
import { lockBackups } from '../backup/lock.js';
import { BackupError } from '../backup/errors.js';
import { clearRemoteAvatars, remoteAvatarFolder } from '../federation/avatars.js';
import { countStorage, deleteSeenNotificationsBefore, freeSpace, vacuumDatabase, type StorageFigures } from '../store/storage-figures.js';
import { toDbDate } from '../util/time.js';

/** How long counted figures are shown before they are counted again. */
export const FIGURES_KEEP_MS = 5 * 60_000;

/** VACUUM rewrites the whole database: at about this many bytes a second on a laptop's disk (a cautious guess). */
const VACUUM_BYTES_PER_SECOND = 50 * 1024 * 1024;

/** Refused because something else holds the database or the store (a backup runs). */
export class StorageBusy extends Error {}

export interface StorageReport extends StorageFigures {
  /** When these figures were counted (ISO time). */
  countedAt: string;
  /** What VACUUM would free, and about how long it would hold the hub. */
  vacuum: { freeBytes: number; seconds: number };
}

interface Counted {
  at: number;
  figures: Promise<StorageFigures>;
}

const counted = new WeakMap<Hub, Counted>();

type StorageHub = Pick<Hub, 'db' | 'dataDir'>;

function vacuumEstimate(db: Hub['db']): StorageReport['vacuum'] {
  const { freeBytes, bytes } = freeSpace(db);
  // It writes the database twice (a copy, then back through the WAL).
  return { freeBytes, seconds: Math.max(1, Math.ceil((2 * (bytes - freeBytes)) / VACUUM_BYTES_PER_SECOND)) };
}

/**
 * The sizes of the database and the store, by channel and by kind. Counting reads whole tables (and
 * every page, for the bytes), so it runs in a worker and is kept FIGURES_KEEP_MS; requests meanwhile
 * share one count. What VACUUM would free is read afresh each time (two pragmas).
 */
export async function storageReport(hub: Hub): Promise<StorageReport> {
  let entry = counted.get(hub);
  if (!entry || Date.now() - entry.at > FIGURES_KEEP_MS) {
    const figures = countStorage(hub.db.name, remoteAvatarFolder(hub.dataDir));
    counted.set(hub, (entry = { at: Date.now(), figures }));
    figures.catch(() => {
      if (counted.get(hub) === entry) counted.delete(hub);
    });
  }
  const at = entry.at;
  const figures = await entry.figures;
  return { ...figures, countedAt: new Date(at).toISOString(), vacuum: vacuumEstimate(hub.db) };
}

/** After a change the owner made here: the next report counts again. */
function countAgain(hub: StorageHub): void {
  counted.delete(hub as Hub);
}

/** Removes the notifications seen and older than `days` days, on every channel; how many went. */
export function cleanOldNotifications(hub: StorageHub, days: number): { removed: number } {
  const before = toDbDate(new Date(Date.now() - days * 86_400_000));
  const removed = deleteSeenNotificationsBefore(hub.db, before);
  countAgain(hub);
  return { removed };
}

/** Empties the remote media cache (federated actors' avatars); what it freed. */
export async function cleanRemoteMedia(hub: Hub): Promise<{ files: number; bytes: number }> {
  const freed = await clearRemoteAvatars(hub);
  countAgain(hub);
  return freed;
}

/**
 * VACUUM on the hub's own connection (it needs the database to itself): the hub answers nothing
 * else until it ends. Refused while a backup runs, and no backup starts while it runs.
 */
export function vacuum(hub: StorageHub): { freedBytes: number; bytes: number; ms: number } {
  let lock: { release(): void };
  try {
    lock = lockBackups(hub.dataDir);
  } catch (err) {
    if (err instanceof BackupError) throw new StorageBusy('A backup is running; compact the database once it has finished');
    throw err;
  }
  try {
    const before = freeSpace(hub.db).bytes;
    const started = Date.now();
    try {
      vacuumDatabase(hub.db);
    } catch (err) {
      // Another process (the command line) writing, or a statement still open on the connection.
      const code = (err as { code?: string }).code ?? '';
      if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) throw new StorageBusy('The database is busy; try again in a moment');
      throw err;
    }
    const after = freeSpace(hub.db).bytes;
    countAgain(hub);
    return { freedBytes: Math.max(0, before - after), bytes: after, ms: Date.now() - started };
  } finally {
    lock.release();
  }
}
