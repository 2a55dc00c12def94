import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { sqliteBinding } from './native-binding.js';
import type { Db } from './open.js';

/** How often the worker moves committed WAL pages into the database file. */
const INTERVAL_MS = 250;

/**
 * WAL size, in pages, at which the writing connection finishes a checkpoint itself (16 MB with 4 KiB
 * pages). The WAL only starts over when a write begins with every page already copied back, which
 * never happens while commits keep coming faster than the worker's rounds: under sustained posting
 * it grew by 36 MB a second, every new block of it zeroed by the kernel first (a tenth of the
 * hub's CPU), and every page read had more WAL index to search. At this size the worker has copied
 * all but the last few hundred pages, so the writer's share is small.
 */
const WAL_PAGES_BEFORE_RESTART = 4000;

// Plain CommonJS evaluated as the worker, so that it runs the same under tsx and compiled.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true, nativeBinding: workerData.nativeBinding });
db.pragma('busy_timeout = 5000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (err) { parentPort.postMessage(String((err && err.message) || err)); }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

/**
 * Checkpoints the database's WAL from a worker thread instead of inside the commits of `db`. A
 * checkpoint copies pages back and fsyncs the file: done by the committing connection itself (the
 * default), it stalled the event loop for tens, at times hundreds of milliseconds every few dozen
 * posts. PASSIVE checkpoints never block writers; should the worker fail, `db` checkpoints as
 * often as SQLite's default again.
 */
export function startCheckpointer(db: Db, onError: (message: string) => void = () => {}): Checkpointer {
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { file: db.name, driver: createRequire(import.meta.url).resolve('better-sqlite3'), nativeBinding: sqliteBinding(), intervalMs: INTERVAL_MS },
  });
  const fallBack = (message: string) => {
    onError(`WAL checkpoints back on the main connection: ${message}`);
    if (db.open) db.pragma('wal_autocheckpoint = 1000');
  };
  let stopping = false;
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    worker.on('exit', () => {
      exited = true;
      if (!stopping) fallBack('the checkpoint worker stopped');
      resolve();
    }),
  );
  worker.on('message', (message: string) => onError(`WAL checkpoint failed: ${message}`));
  worker.on('error', (err) => fallBack(err.message));
  worker.unref();
  db.pragma(`wal_autocheckpoint = ${WAL_PAGES_BEFORE_RESTART}`);
  return {
    // Safe to call more than once, and after the worker has gone.
    stop() {
      if (!stopping && !exited) {
        stopping = true;
        worker.ref();
        worker.postMessage('stop');
      }
      stopping = true;
      return exit;
    },
  };
}
