import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { sqliteBinding } from '../db/native-binding.js';
import { STORED_FILE_CONTENTS_SQL } from '../store/integrity.js';
import { CHUNK_SIZE, type DatabaseChunk } from './chunks.js';

// Plain CommonJS evaluated as the worker, so that it runs the same under tsx and compiled. It copies
// the database from a connection of its own, inside one read transaction, so the copy is the
// database as of one commit; in WAL mode that transaction never holds up the hub's writers.
//
// A database up to `memoryLimit` is copied into memory (sqlite3_serialize), its chunks named and the
// whole hashed here, off the thread that serves; only the chunks the target lacks travel to the
// caller, a batch at a time. That spares writing the whole copy to a file and reading it back, which
// was most of an incremental backup's time. A larger one goes through the backup API into `dest`.
const WORKER = `
const { parentPort, workerData: w } = require('node:worker_threads');
const { createHash, createHmac } = require('node:crypto');
const Database = require(w.driver);
const fail = (err) => parentPort.postMessage({ type: 'error', message: String((err && err.message) || err) });
let db;
try {
  db = new Database(w.file, { fileMustExist: true, nativeBinding: w.nativeBinding });
  db.pragma('busy_timeout = 10000');
} catch (err) {
  fail(err);
  return;
}
const bytes = db.pragma('page_count', { simple: true }) * db.pragma('page_size', { simple: true });
if (bytes > w.memoryLimit) {
  // The first step only starts the backup, the second copies every page at once, in one read
  // transaction: no write from the hub can make it start over, as it would between smaller steps.
  db.backup(w.dest, { progress: () => 0x7fffffff }).then(
    () => { db.close(); parentPort.postMessage({ type: 'file' }); },
    (err) => { db.close(); fail(err); },
  );
  return;
}
let copy, contents, schema;
try {
  db.exec('BEGIN');
  contents = db.prepare(w.contentsSql).pluck().all();
  schema = db.pragma('user_version', { simple: true });
  copy = db.serialize();
  db.exec('COMMIT');
} catch (err) {
  fail(err);
  return;
} finally {
  db.close();
}
// A rollback-journal database in the header, as the backup API's copy becomes once opened (a copy
// read in WAL mode would leave -wal and -shm files beside it).
copy[18] = 1;
copy[19] = 1;
const key = w.chunkKey && Buffer.from(w.chunkKey);
const known = new Set(w.inTarget);
const whole = createHash('sha256');
const chunks = [];
const fresh = [];
for (let offset = 0; offset < copy.length; offset += w.chunkSize) {
  const slice = copy.subarray(offset, Math.min(offset + w.chunkSize, copy.length));
  whole.update(slice);
  const name = (key ? createHmac('sha256', key) : createHash('sha256')).update(slice).digest('hex');
  chunks.push({ name, offset, size: slice.length });
  if (!known.has(name)) {
    known.add(name);
    fresh.push(chunks[chunks.length - 1]);
  }
}
parentPort.postMessage({ type: 'copy', contents, schema, size: copy.length, sha256: whole.digest('hex'), chunks });
let next = 0;
const sendBatch = () => {
  if (next >= fresh.length) return parentPort.postMessage({ type: 'end' });
  const batch = fresh.slice(next, next + w.batch);
  next += batch.length;
  // Copies of the slices, moved rather than cloned: a view would carry its whole buffer along.
  const list = batch.map((c) => [c, new Uint8Array(copy.subarray(c.offset, c.offset + c.size))]);
  parentPort.postMessage({ type: 'chunks', list }, list.map((e) => e[1].buffer));
};
parentPort.on('message', sendBatch);
sendBatch();
`;

/** Chunks sent by the worker at once: the memory in flight between the threads. */
const BATCH = 32;

/** The database copied into memory: what it refers to, and the chunks the target lacks. */
export interface MemoryCopy {
  kind: 'memory';
  /** The store paths of every file the copy refers to (storedFileContents). */
  contents: string[];
  schema: number;
  /** Calls `onChunk` for each chunk the target lacked when the copy was taken, in order; the whole copy's size, SHA-256 and chunks. */
  eachNewChunk(onChunk: (chunk: DatabaseChunk, bytes: Buffer) => Promise<void>): Promise<{ size: number; sha256: string; chunks: DatabaseChunk[] }>;
  /** Ends the worker (when the backup stops before reading every chunk). */
  close(): void;
}

/** The database copied into the file `dest` (too large to hold in memory). */
export interface FileCopy {
  kind: 'file';
  path: string;
}

export interface CopyOptions {
  /** Where a copy too large for memory goes. */
  dest: string;
  /** Copies up to this size are taken in memory. */
  memoryLimit: number;
  /** The key of the chunks' names (chunks.ts chunkName). */
  chunkKey: Buffer | undefined;
  /** Names of the chunks the target has. */
  inTarget: Set<string>;
}

type FromWorker =
  | { type: 'error'; message: string }
  | { type: 'file' }
  | { type: 'copy'; contents: string[]; schema: number; size: number; sha256: string; chunks: DatabaseChunk[] }
  | { type: 'chunks'; list: [DatabaseChunk, Uint8Array][] }
  | { type: 'end' };

/**
 * Copies the database at `file` (the hub's, live), consistent as of one commit, in a worker thread
 * so that the event loop of a hub in the same process goes on serving.
 */
export function copyDatabase(file: string, opts: CopyOptions): Promise<MemoryCopy | FileCopy> {
  const worker = new Worker(`(() => {${WORKER}})()`, {
    eval: true,
    workerData: {
      file,
      dest: opts.dest,
      memoryLimit: opts.memoryLimit,
      chunkSize: CHUNK_SIZE,
      chunkKey: opts.chunkKey && new Uint8Array(opts.chunkKey),
      inTarget: [...opts.inTarget],
      batch: BATCH,
      contentsSql: STORED_FILE_CONTENTS_SQL,
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      nativeBinding: sqliteBinding(),
    },
  });
  const messages: FromWorker[] = [];
  let waiting: ((m: FromWorker) => void) | undefined;
  const deliver = (m: FromWorker) => (waiting ? (waiting(m), (waiting = undefined)) : messages.push(m));
  worker.on('message', deliver);
  worker.once('error', (err) => deliver({ type: 'error', message: err.message }));
  worker.once('exit', (code) => deliver({ type: 'error', message: `the worker stopped (${code})` }));
  const receive = () => new Promise<FromWorker>((resolve) => (messages.length ? resolve(messages.shift()!) : (waiting = resolve)));
  const close = () => void worker.terminate();
  const failed = (m: { message: string }) => new Error(`copying the database failed: ${m.message}`);

  return receive().then((first) => {
    if (first.type === 'file') {
      close();
      return { kind: 'file', path: opts.dest };
    }
    if (first.type !== 'copy') {
      close();
      throw failed(first.type === 'error' ? first : { message: `unexpected ${first.type}` });
    }
    return {
      kind: 'memory',
      contents: first.contents,
      schema: first.schema,
      close,
      async eachNewChunk(onChunk) {
        try {
          for (;;) {
            const m = await receive();
            if (m.type === 'end') break;
            if (m.type !== 'chunks') throw failed(m.type === 'error' ? m : { message: `unexpected ${m.type}` });
            for (const [chunk, bytes] of m.list) await onChunk(chunk, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
            worker.postMessage('next');
          }
        } finally {
          close();
        }
        return { size: first.size, sha256: first.sha256, chunks: first.chunks };
      },
    };
  });
}
