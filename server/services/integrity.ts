import type { Db } from '../db/open.js';
import type { AttachmentStore } from '../files/store.js';
import { getConfig, setConfig } from '../store/config.js';
import { photoFileContents, removeRowsWithoutFile, storedFileRef, type StoredFileRef } from '../store/integrity.js';
import { startIntegrityWorker, STORE_SLICES, type IntegrityFinding, type IntegrityWorker } from '../store/integrity-worker.js';

export interface IntegrityReport {
  /** Files in the store that no row refers to (left by a crash between write and commit). */
  orphanFiles: number;
  /** Rows whose file is missing (should never happen; repaired by removing the row, or the whole photo). */
  rowsWithoutFile: number;
  repaired: string[];
}

export interface IntegrityOptions {
  /** SQLite's own checks too, which read the whole database: after an unclean stop. Default true. */
  sqlite?: boolean;
  /** Wait this long before the work begins, so that the start's own requests go first. */
  delayMs?: number;
  /** Pause between slices of the store, to spread the work over time. */
  pauseMs?: number;
  /** Go on from the slice where the last check stopped (kept in the database), instead of from the first. */
  resume?: boolean;
  /** Tests interleave writes or hold the check here: awaited before the findings of each slice are looked at again. */
  beforeRepair?: () => Promise<void>;
}

export interface IntegrityStatus {
  state: 'waiting' | 'running' | 'done' | 'stopped' | 'failed';
  /** With SQLite's checks (after an unclean stop), or only the store against the database. */
  full: boolean;
  phase?: 'database' | 'store';
  slicesDone: number;
  slices: number;
  report: IntegrityReport;
  error?: string;
}

/** The check in progress: its status now, and its report when it ends (stopped early: as far as it got). */
export interface IntegrityCheck {
  readonly done: Promise<IntegrityReport>;
  status(): IntegrityStatus;
  stop(): Promise<void>;
}

const NEXT_SLICE = 'integrity_next_slice';
const FULL_PENDING = 'integrity_full_pending';

/**
 * Checks the database against the attachment store: rows whose file is gone are removed (a photo
 * missing any file is removed whole and its items hidden), then files no row refers to; with
 * `sqlite`, SQLite's own consistency checks run first.
 *
 * Nothing of it reads the whole database or the whole store on the hub's connection or event loop:
 * a worker thread with a read-only connection of its own lists the store and reads the rows, one
 * slice of keys at a time, and reports what looks wrong; the hub looks at each finding again (a
 * row or a file may have changed since) and repairs on its connection, in small transactions.
 * Files stored after the check began belong to writes in progress and are left alone, so it must
 * begin before any write does (the hub starts it before it serves).
 */
export function startIntegrityCheck(db: Db, store: AttachmentStore, opts: IntegrityOptions = {}): IntegrityCheck {
  if (db.memory) throw new Error('the integrity check needs a database file');
  const full = opts.sqlite ?? true;
  const written = store.watchNewKeys();
  const counts = { orphanFiles: 0, rowsWithoutFile: 0, photosRemoved: 0, notes: [] as string[] };
  const status: Omit<IntegrityStatus, 'report'> = { state: 'waiting', full, slicesDone: 0, slices: STORE_SLICES };
  if (full) setConfig(db, 'system', FULL_PENDING, '1');
  const first = opts.resume ? Number(getConfig(db, 'system', NEXT_SLICE) ?? 0) % STORE_SLICES || 0 : 0;
  const slices = Array.from({ length: STORE_SLICES }, (_, i) => (first + i) % STORE_SLICES);
  let nextSlice = first;

  const report = (): IntegrityReport => {
    const repaired = [...counts.notes];
    if (counts.rowsWithoutFile) repaired.push(`removed ${counts.rowsWithoutFile} rows whose file was missing${counts.photosRemoved ? ` (${counts.photosRemoved} photos removed whole)` : ''}`);
    if (counts.orphanFiles) repaired.push(`removed ${counts.orphanFiles} orphan files`);
    return { orphanFiles: counts.orphanFiles, rowsWithoutFile: counts.rowsWithoutFile, repaired };
  };

  /** Rows the worker found without their file: still there, with the same file, and it still missing. */
  const removeRowsStillWithoutFile = async (missing: { table: 'attach' | 'photo'; id: number }[]) => {
    const gone: StoredFileRef[] = [];
    for (const m of missing) {
      const ref = storedFileRef(db, m.table, m.id);
      const key = ref && store.keyOf(ref.content);
      if (ref && (!key || (await store.size(key)) === undefined)) gone.push(ref);
    }
    // From reading the rows again to removing them nothing awaits: no write slips in between.
    const confirmed = gone.filter((g) => storedFileRef(db, g.table, g.id)?.content === g.content);
    if (!confirmed.length) return;
    const photos = [...new Set(confirmed.map((r) => r.photoResource).filter((r): r is string => r !== undefined))];
    const photoFiles = photos.flatMap((resource) => photoFileContents(db, resource));
    removeRowsWithoutFile(db, confirmed);
    counts.rowsWithoutFile += confirmed.length;
    counts.photosRemoved += photos.length;
    // The other files of a photo removed whole belong to no row now.
    for (const content of photoFiles) {
      const key = store.keyOf(content);
      if (key && (await store.size(key)) !== undefined) {
        await store.remove(key);
        counts.orphanFiles++;
      }
    }
  };

  const removeOrphans = async (orphans: string[]) => {
    for (const key of orphans) {
      // Stored since the check began (a write in progress), or removed since it was listed.
      if (written.keys.has(key) || (await store.size(key)) === undefined) continue;
      await store.remove(key);
      counts.orphanFiles++;
    }
  };

  let worker: IntegrityWorker | undefined;
  let stopped = false;
  let onStop = () => {};
  const stopping = new Promise<void>((resolve) => (onStop = resolve));
  let timer: NodeJS.Timeout | undefined;
  let settle: (r: IntegrityReport) => void;
  let fail: (e: Error) => void;
  const done = new Promise<IntegrityReport>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  const finish = (state: IntegrityStatus['state'], error?: string) => {
    if (status.state === 'done' || status.state === 'stopped' || status.state === 'failed') return;
    status.state = state;
    status.error = error;
    written.stop();
    if (state === 'failed') fail(new Error(error));
    else settle(report());
  };

  // Findings arrive in order; each is handled once the one before it was.
  let queue = Promise.resolve();
  const handle = async (f: IntegrityFinding) => {
    if (stopped) return;
    switch (f.type) {
      case 'phase':
        status.phase = f.phase;
        return;
      case 'database':
        if (f.quick.length) counts.notes.push(`database quick_check reported: ${f.quick.join('; ')}`);
        if (f.foreignKeys) counts.notes.push(`${f.foreignKeys} foreign key violations found`);
        return;
      case 'slice':
        // A test holding the check here does not hold up stop().
        if (opts.beforeRepair) await Promise.race([opts.beforeRepair(), stopping]);
        if (stopped) return;
        await removeRowsStillWithoutFile(f.missing);
        await removeOrphans(f.orphans);
        status.slicesDone++;
        nextSlice = (f.slice + 1) % STORE_SLICES;
        worker?.proceed();
        return;
      case 'done':
        if (full && db.open) setConfig(db, 'system', FULL_PENDING, '0');
        finish('done');
        return;
      case 'error':
        finish('failed', f.message);
    }
  };
  const begin = () => {
    timer = undefined;
    if (stopped) return;
    status.state = 'running';
    worker = startIntegrityWorker({ file: db.name, root: store.root, sqlite: full, slices, pauseMs: opts.pauseMs ?? 0 }, (f) => {
      queue = queue.then(() => handle(f)).catch((err: Error) => finish('failed', err.message));
    });
  };
  if (opts.delayMs) timer = setTimeout(begin, opts.delayMs);
  else begin();

  return {
    done,
    status: () => ({ ...status, report: report() }),
    async stop() {
      if (stopped) return;
      stopped = true;
      onStop();
      if (timer) clearTimeout(timer);
      await worker?.stop();
      await queue;
      // Kept for the next start, written once here rather than after every slice: a running hub
      // writes nothing unless it repairs something.
      if (status.state === 'running' && db.open) setConfig(db, 'system', NEXT_SLICE, String(nextSlice));
      finish('stopped');
    },
  };
}

/** Whether a full check (SQLite's too) was begun and has not finished: the next start should run one. */
export function fullCheckPending(db: Db): boolean {
  return getConfig(db, 'system', FULL_PENDING) === '1';
}

/** Runs a whole check at once and resolves with its report. */
export function checkIntegrity(db: Db, store: AttachmentStore, opts: IntegrityOptions = {}): Promise<IntegrityReport> {
  return startIntegrityCheck(db, store, { ...opts, delayMs: 0, pauseMs: 0 }).done;
}
