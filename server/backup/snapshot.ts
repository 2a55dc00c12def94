import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { sqliteBinding } from '../db/native-binding.js';

// Plain CommonJS evaluated as the worker, so that it runs the same under tsx and compiled.
// SQLite's online backup from a connection of its own: the first step only starts it, the second
// copies every page at once, inside one read transaction. So the copy is the database as of one
// commit, and no write from the hub (another connection) can make it start over, as it would
// between smaller steps. In WAL mode that read transaction never holds up a writer.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
let db;
try {
  db = new Database(workerData.file, { fileMustExist: true, nativeBinding: workerData.nativeBinding });
  db.pragma('busy_timeout = 10000');
} catch (err) {
  parentPort.postMessage({ ok: false, message: String((err && err.message) || err) });
  return;
}
db.backup(workerData.dest, { progress: () => 0x7fffffff }).then(
  (p) => { db.close(); parentPort.postMessage({ ok: true, pages: p.totalPages }); },
  (err) => { db.close(); parentPort.postMessage({ ok: false, message: String((err && err.message) || err) }); },
);
`;

/**
 * Copies the database at `file` (the hub's, live) to `dest`, consistent as of one commit, in a
 * worker thread so that the event loop of a hub in the same process goes on serving.
 */
export function snapshotDatabase(file: string, dest: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const worker = new Worker(`(() => {${WORKER}})()`, {
      eval: true,
      workerData: { file, dest, driver: createRequire(import.meta.url).resolve('better-sqlite3'), nativeBinding: sqliteBinding() },
    });
    worker.once('message', (m: { ok: boolean; message?: string }) => {
      void worker.terminate();
      if (m.ok) resolve();
      else reject(new Error(`copying the database failed: ${m.message}`));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the database copy stopped (${code})`)));
  });
}
