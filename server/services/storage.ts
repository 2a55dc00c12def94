import type { Hub } from '../hub-context.js';
import { lockBackups } from '../backup/lock.js';
import { BackupError } from '../backup/errors.js';
import { clearRemoteAvatars, remoteAvatarFolder } from '../federation/avatars.js';
import { countStorage, deleteSeenNotificationsBefore, freeSpace, truncateWal, vacuumDatabase, type StorageFigures } from '../store/storage-figures.js';
import { toDbDate } from '../util/time.js';

/** How long counted figures are shown before they are counted again. */
export const FIGURES_KEEP_MS = 5 * 60_000;

/**
 * VACUUM rewrites the whole database, about this many bytes of it a second: the bench's huge data
 * set (3.2 GB) took 44 s on the 2-core test machine (70 MB/s), halved here for slower disks.
 */
const VACUUM_BYTES_PER_SECOND = 35 * 1024 * 1024;

/** Refused because something else holds the database or the store (a backup runs). */
export class StorageBusy extends Error {}

export interface StorageReport extends StorageFigures {
  /** When these figures were counted (ISO time). */
  countedAt: string;
  /**
   * What VACUUM would free: the free pages for sure, and part of the room unused inside pages (as
   * counted); about how long it would hold the hub.
   */
  vacuum: { freeBytes: number; unusedBytes: number | null; seconds: number };
}

interface Counted {
  at: number;
  figures: Promise<StorageFigures>;
}

const counted = new WeakMap<Hub, Counted>();

type StorageHub = Pick<Hub, 'db' | 'dataDir'>;

function vacuumEstimate(db: Hub['db'], unusedBytes: number | null): StorageReport['vacuum'] {
  const { freeBytes, bytes } = freeSpace(db);
  return { freeBytes, unusedBytes, seconds: Math.max(1, Math.ceil((bytes - freeBytes) / VACUUM_BYTES_PER_SECOND)) };
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
  return { ...figures, countedAt: new Date(at).toISOString(), vacuum: vacuumEstimate(hub.db, figures.database.unusedBytes) };
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

/** Tries again for a while to truncate the WAL, which a checkpoint or a reader held up. */
function truncateWalSoon(db: Hub['db']): void {
  let tries = 0;
  const timer = setInterval(() => {
    if (!db.open || truncateWal(db) || ++tries >= 40) clearInterval(timer);
  }, 250);
  timer.unref();
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
    if (!truncateWal(hub.db)) truncateWalSoon(hub.db);
    const after = freeSpace(hub.db).bytes;
    countAgain(hub);
    return { freedBytes: Math.max(0, before - after), bytes: after, ms: Date.now() - started };
  } finally {
    lock.release();
  }
}
