import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { sqliteBinding } from '../db/native-binding.js';
import { STORE_LAYOUT_SOURCE } from '../files/list-keys.js';

/** The store is compared with the database in this many slices: keys whose first hex digit is the slice's. */
export const STORE_SLICES = 16;

// Plain CommonJS evaluated as the worker, so that it runs the same under tsx and compiled. It reads
// the database through a read-only connection of its own (in WAL mode it never waits for the hub's
// writes, nor they for it) and lists the store synchronously (thousands of one-file directories list
// several times faster without a thread-pool round trip each, and in a worker that costs the event
// loop nothing). It only reports; the hub checks each finding again and repairs on its connection.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { readdirSync } = require('node:fs');
const { join } = require('node:path');
const Database = require(workerData.driver);
const HEX = '0123456789abcdef';
${STORE_LAYOUT_SOURCE}
// As AttachmentStore.keyOf.
const keyOf = (content) => {
  const key = content.slice(content.lastIndexOf('/') + 1);
  return KEY.test(key) ? key : undefined;
};
// The rows of one slice; the first slice also takes rows whose content names no key at all.
const SLICE_ROWS = \`
  SELECT 'attach' AS tbl, id, content FROM attach
   WHERE is_dir = 0 AND os_storage = 1 AND (substr(content, -64, 1) = @digit OR (@first AND substr(content, -64, 1) NOT GLOB '[0-9a-f]'))
  UNION ALL
  SELECT 'photo', id, content FROM photo
   WHERE os_storage = 1 AND (substr(content, -64, 1) = @digit OR (@first AND substr(content, -64, 1) NOT GLOB '[0-9a-f]'))\`;

let next;
parentPort.on('message', () => next && next());
const answered = () => new Promise((resolve) => { next = resolve; });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

(async () => {
  const db = new Database(workerData.file, { readonly: true, fileMustExist: true, nativeBinding: workerData.nativeBinding });
  try {
    db.pragma('busy_timeout = 5000');
    if (workerData.sqlite) {
      parentPort.postMessage({ type: 'phase', phase: 'database' });
      const quick = db.pragma('quick_check').map((r) => r.quick_check).filter((line) => line !== 'ok');
      const foreignKeys = db.pragma('foreign_key_check').length;
      parentPort.postMessage({ type: 'database', quick, foreignKeys });
    }
    parentPort.postMessage({ type: 'phase', phase: 'store' });
    const rows = db.prepare(SLICE_ROWS);
    for (let n = 0; n < workerData.slices.length; n++) {
      const slice = workerData.slices[n];
      const digit = HEX[slice];
      // The files first, then the rows: a row committed in between, with its file, counts as fine;
      // one whose file was removed in between is looked at again by the hub.
      const onDisk = new Set();
      for (const a of list(workerData.root, true)) {
        if (!SHARD.test(a) || a[0] !== digit) continue;
        for (const b of list(join(workerData.root, a))) {
          if (!SHARD.test(b)) continue;
          for (const name of list(join(workerData.root, a, b))) if (KEY.test(name)) onDisk.add(name);
        }
      }
      const referenced = new Set();
      const missing = [];
      for (const r of rows.iterate({ digit, first: slice === 0 ? 1 : 0 })) {
        const key = keyOf(r.content);
        if (key) referenced.add(key);
        if (!key || !onDisk.has(key)) missing.push({ table: r.tbl, id: r.id });
      }
      const orphans = [...onDisk].filter((key) => !referenced.has(key));
      parentPort.postMessage({ type: 'slice', slice, orphans, missing });
      await answered();
      if (workerData.pauseMs && n < workerData.slices.length - 1) await sleep(workerData.pauseMs);
    }
  } finally {
    db.close();
  }
  parentPort.postMessage({ type: 'done' });
})()
  .catch((err) => parentPort.postMessage({ type: 'error', message: String((err && err.message) || err) }))
  .finally(() => parentPort.close());
`;

export type IntegrityFinding =
  | { type: 'phase'; phase: 'database' | 'store' }
  /** SQLite's own checks: quick_check's complaints (none when all is well) and foreign key violations. */
  | { type: 'database'; quick: string[]; foreignKeys: number }
  /** One slice of the store: keys with a file and no row, and rows whose file is not in the listing. */
  | { type: 'slice'; slice: number; orphans: string[]; missing: { table: 'attach' | 'photo'; id: number }[] }
  | { type: 'done' }
  | { type: 'error'; message: string };

export interface IntegrityWorker {
  /** The worker waits after each slice until told to go on (the hub repairs in between). */
  proceed(): void;
  stop(): Promise<void>;
}

/**
 * Compares the database at `file` with the attachment store under `root` in a worker thread, slice
 * by slice (in the order given), pausing `pauseMs` between slices; with `sqlite`, runs SQLite's
 * quick_check and foreign key check first. Findings arrive through `report`.
 */
export function startIntegrityWorker(
  opts: { file: string; root: string; sqlite: boolean; slices: number[]; pauseMs: number },
  report: (finding: IntegrityFinding) => void,
): IntegrityWorker {
  const worker = new Worker(`(() => {${WORKER}})()`, {
    eval: true,
    workerData: { ...opts, driver: createRequire(import.meta.url).resolve('better-sqlite3'), nativeBinding: sqliteBinding() },
  });
  let ended = false;
  const exit = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const end = (finding: IntegrityFinding) => {
    if (ended) return;
    ended = true;
    report(finding);
    void worker.terminate();
  };
  worker.on('message', (finding: IntegrityFinding) => (finding.type === 'done' || finding.type === 'error' ? end(finding) : report(finding)));
  worker.once('error', (err) => end({ type: 'error', message: err.message }));
  void exit.then(() => end({ type: 'error', message: 'the integrity check stopped' }));
  return {
    proceed: () => worker.postMessage('next'),
    async stop() {
      ended = true;
      await worker.terminate();
      await exit;
    },
  };
}
