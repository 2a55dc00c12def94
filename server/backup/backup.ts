import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { Readable, type Transform } from 'node:stream';
import { openSqlite } from '../db/native-binding.js';
import { storedFileContents } from '../store/integrity.js';
import { HEARTH_VERSION } from '../version.js';
import { readCatalogue } from './catalogue.js';
import { checksumOfFile, checksumTap } from './checksum.js';
import { readChunks, type DatabaseChunk } from './chunks.js';
import { BackupError } from './errors.js';
import { lockBackups } from './lock.js';
import { backupFolder, backupSize, chunkObject, fileObject, keyOfFileObject, MANIFEST_OBJECT, nameOfChunkObject, newBackupId, type Manifest, type ManifestFile } from './manifest.js';
import { backupsToKeep, DEFAULT_RETENTION, type RetentionPolicy } from './retention.js';
import { copyDatabase, type FileCopy, type MemoryCopy } from './snapshot.js';
import type { BackupTarget } from './targets/target.js';
import { openVault, type Vault } from './vault.js';

export interface BackupProgress {
  phase: 'database' | 'files' | 'finishing';
  files: { done: number; total: number };
  bytes: { done: number; total: number };
}

export interface BackupOptions {
  /** The hub's data folder (it may be serving). */
  dataDir: string;
  target: BackupTarget;
  passphrase?: string;
  keep?: RetentionPolicy;
  onProgress?: (p: BackupProgress) => void;
  /** Stops the backup between two files; the backups made before stay as they were. */
  signal?: AbortSignal;
  /** A database up to this size is copied in memory rather than into a file (default: databaseInMemoryLimit()). */
  databaseInMemory?: number;
}

export interface BackupResult {
  id: string;
  /** What the backup holds: the database and every file it refers to. */
  bytes: number;
  files: number;
  /** What this run copied; the rest was in the target already. */
  copiedFiles: number;
  copiedBytes: number;
  /** The bytes of the database's chunks this run wrote: those that changed since the backups in the target. */
  copiedDatabaseBytes: number;
  databaseBytes: number;
  seconds: number;
  /** Older backups removed by the retention policy. */
  removed: string[];
}

/** Files copied at once: enough to keep a disk or a connection busy. */
const PARALLEL = 4;
/** Copies of the database taken at most when files keep being deleted under the backup. */
const ATTEMPTS = 5;

/**
 * The largest database copied in memory: HEARTH_BACKUP_MEMORY_MB (0: never), else 512 MiB or an
 * eighth of the machine's memory if less. Larger ones are copied into a file in the data folder,
 * then read from it.
 */
export function databaseInMemoryLimit(env: NodeJS.ProcessEnv = process.env): number {
  const mb = Number(env.HEARTH_BACKUP_MEMORY_MB);
  if (env.HEARTH_BACKUP_MEMORY_MB?.trim() && Number.isFinite(mb) && mb >= 0) return mb * 1024 * 1024;
  return Math.min(512 * 1024 * 1024, Math.floor(totalmem() / 8));
}

/** A file of the store gone since the database was copied: the copy is stale, take another. */
class StaleSnapshot extends Error {}

function localFile(dataDir: string, key: string): string {
  return join(dataDir, 'store', key.slice(0, 2), key.slice(2, 4), key);
}

/** The keys of the store files among these store paths. */
function keysOf(contents: string[]): string[] {
  const keys = new Set<string>();
  for (const content of contents) {
    const key = content.slice(content.lastIndexOf('/') + 1);
    if (/^[0-9a-f]{64}$/.test(key)) keys.add(key);
  }
  return [...keys].sort();
}

/** The keys of the files the database copy refers to, and its schema version. */
function referencedKeys(copy: MemoryCopy | FileCopy): { keys: string[]; schema: number } {
  if (copy.kind === 'memory') return { keys: keysOf(copy.contents), schema: copy.schema };
  const db = openSqlite(copy.path, { fileMustExist: true });
  try {
    // A copy of a WAL database is one too, and reading it would leave -wal and -shm files beside it.
    db.pragma('journal_mode = DELETE');
    return { keys: keysOf(storedFileContents(db)), schema: db.pragma('user_version', { simple: true }) as number };
  } finally {
    db.close();
  }
}

async function runLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  const results = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker));
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw failure.reason;
}

/** A file's bytes through a pass-through; a failed read fails the pass-through too. */
function readThrough(path: string, tap: Transform): Transform {
  const source = createReadStream(path);
  source.once('error', (err) => tap.destroy(err));
  return source.pipe(tap);
}

async function writeSealed(target: BackupTarget, vault: Vault, name: string, body: Readable): Promise<void> {
  await target.write(name, await vault.seal(body));
}

/**
 * Backs up a hub's data folder, while the hub serves, to a target: a copy of the database as of one
 * commit, with every attachment file it refers to that the target does not have yet (files are
 * immutable and named by their key, so they are shared by all the backups there), the chunks of
 * the database copy the target does not have yet (named by a hash of their bytes, so shared too),
 * then the manifest, written last. Older backups go by the retention policy after the new one is complete,
 * together with the files no kept backup refers to. Interrupted at any point, it leaves the earlier
 * backups as they were, and the next run completes.
 */
export async function runBackup(opts: BackupOptions): Promise<BackupResult> {
  const started = Date.now();
  const lock = lockBackups(opts.dataDir);
  const work = join(opts.dataDir, 'backup-work');
  const snapshot = join(work, 'hearth.db');
  try {
    await rm(work, { recursive: true, force: true });
    await mkdir(work, { recursive: true });
    const { target } = opts;
    await target.prepare();
    const vault = await openVault(target, opts.passphrase, { create: true });
    const catalogue = await readCatalogue(target, vault);
    const known = new Map<string, ManifestFile>();
    for (const m of catalogue.complete) for (const f of m.files) known.set(f[0], f);
    const inTarget = new Set<string>();
    for (const name of await target.list('files/')) {
      const key = keyOfFileObject(name);
      if (key) inTarget.add(key);
    }
    const chunksInTarget = new Set<string>();
    for (const object of await target.list('chunks/')) {
      const name = nameOfChunkObject(object);
      if (name) chunksInTarget.add(name);
    }

    const progress: BackupProgress = { phase: 'database', files: { done: 0, total: 0 }, bytes: { done: 0, total: 0 } };
    const report = () => opts.onProgress?.(progress);
    const copied = { files: 0, bytes: 0 };
    let files: ManifestFile[] = [];
    let stored: Awaited<ReturnType<typeof storeDatabase>>;
    let schema = 0;
    let created = new Date();
    for (let attempt = 1; ; attempt++) {
      opts.signal?.throwIfAborted();
      progress.phase = 'database';
      report();
      await rm(snapshot, { force: true });
      created = new Date();
      const copy = await copyDatabase(join(opts.dataDir, 'hearth.db'), { dest: snapshot, memoryLimit: opts.databaseInMemory ?? databaseInMemoryLimit(), chunkKey: vault.chunkKey, inTarget: chunksInTarget });
      let refs: ReturnType<typeof referencedKeys>;
      try {
        refs = referencedKeys(copy);
      } catch (err) {
        if (copy.kind === 'memory') copy.close();
        throw err;
      }
      schema = refs.schema;
      // The files and the database's chunks go to the target side by side: one is mostly waiting for
      // the disk or the network, the other mostly hashing.
      const [copying, storing] = await Promise.allSettled([copyFiles(opts, vault, refs.keys, { known, inTarget, progress, report, copied }), storeDatabase(opts, vault, copy, chunksInTarget)]);
      if (copying.status === 'fulfilled' && storing.status === 'fulfilled') {
        files = copying.value;
        stored = storing.value;
        break;
      }
      const failures = [copying, storing].flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
      const fatal = failures.find((err) => !(err instanceof StaleSnapshot));
      if (fatal !== undefined || attempt >= ATTEMPTS) throw fatal ?? failures[0];
    }

    progress.phase = 'finishing';
    report();
    const id = newBackupId(created, new Set(catalogue.objects.keys()));
    const { database, written } = stored;
    const manifest: Manifest = { format: 2, id, created: created.toISOString(), hearth: { version: HEARTH_VERSION, schema }, database, files, copied: { ...copied, databaseBytes: written } };
    await writeSealed(target, vault, backupFolder(id) + MANIFEST_OBJECT, Readable.from([Buffer.from(JSON.stringify(manifest))]));

    const removed = await applyRetention(target, catalogue, manifest, opts.keep ?? DEFAULT_RETENTION, { files: inTarget, chunks: chunksInTarget });
    return { id, bytes: backupSize(manifest), files: files.length, copiedFiles: copied.files, copiedBytes: copied.bytes, copiedDatabaseBytes: written, databaseBytes: database.size, seconds: (Date.now() - started) / 1000, removed };
  } finally {
    await rm(work, { recursive: true, force: true }).catch(() => undefined);
    lock.release();
  }
}

/**
 * Writes the chunks of the database copy that the target lacks, a few at once, as they come (from
 * memory, or from one read of the file that names the chunks and checksums the whole); the
 * manifest's entry for the copy.
 */
async function storeDatabase(opts: BackupOptions, vault: Vault, source: MemoryCopy | FileCopy, inTarget: Set<string>): Promise<{ database: Manifest['database']; written: number }> {
  const writing = new Set<Promise<void>>();
  let failure: unknown;
  let written = 0;
  let copy: { size: number; sha256: string; chunks: DatabaseChunk[] };
  const each = source.kind === 'memory' ? source.eachNewChunk.bind(source) : (onChunk: (chunk: DatabaseChunk, bytes: Buffer) => Promise<void>) => readChunks(source.path, vault.chunkKey, onChunk);
  try {
    copy = await each(async (chunk, bytes) => {
      if (failure) throw failure;
      if (inTarget.has(chunk.name)) return;
      opts.signal?.throwIfAborted();
      inTarget.add(chunk.name);
      const body = Buffer.from(bytes);
      const write: Promise<void> = writeSealed(opts.target, vault, chunkObject(chunk.name), Readable.from([body]))
        .then(
          () => void (written += body.length),
          (err: unknown) => void (failure ??= err),
        )
        .finally(() => writing.delete(write));
      writing.add(write);
      while (writing.size >= PARALLEL) await Promise.race(writing);
    });
  } finally {
    // Nothing goes on writing once the backup has stopped.
    await Promise.all(writing);
  }
  if (failure) throw failure;
  return { database: { size: copy.size, sha256: copy.sha256, chunks: copy.chunks.map((c) => [c.name, c.size]) }, written };
}

interface CopyState {
  known: Map<string, ManifestFile>;
  inTarget: Set<string>;
  progress: BackupProgress;
  report: () => void;
  copied: { files: number; bytes: number };
}

/** Copies the files the target lacks; the manifest entry of every file the database refers to. */
async function copyFiles(opts: BackupOptions, vault: Vault, keys: string[], s: CopyState): Promise<ManifestFile[]> {
  const entries = new Map<string, ManifestFile>();
  const missing: { key: string; size: number }[] = [];
  for (const key of keys) {
    const entry = s.known.get(key);
    if (entry && s.inTarget.has(key)) {
      entries.set(key, entry);
      continue;
    }
    const size = await stat(localFile(opts.dataDir, key)).then(
      (st) => st.size,
      () => undefined,
    );
    if (size === undefined) throw new StaleSnapshot(key);
    missing.push({ key, size });
  }
  s.progress.phase = 'files';
  s.progress.files = { done: 0, total: missing.length };
  s.progress.bytes = { done: 0, total: missing.reduce((sum, f) => sum + f.size, 0) };
  s.report();
  await runLimited(missing, PARALLEL, async ({ key }) => {
    opts.signal?.throwIfAborted();
    const path = localFile(opts.dataDir, key);
    let entry: ManifestFile;
    try {
      if (s.inTarget.has(key)) {
        // Left by an interrupted run: the object is whole (writes are), only its checksum is unknown.
        const c = await checksumOfFile(path);
        entry = [key, c.size, c.sha256];
      } else {
        const tap = checksumTap((n) => {
          s.progress.bytes.done += n;
          s.report();
        });
        await opts.target.write(fileObject(key), await vault.seal(readThrough(path, tap)));
        const c = tap.result();
        entry = [key, c.size, c.sha256];
        s.inTarget.add(key);
        s.copied.files++;
        s.copied.bytes += c.size;
      }
    } catch (err) {
      // Deleted from the store since the database was copied (whatever the target made of the failed read).
      if (!(await stat(path).catch(() => undefined))) throw new StaleSnapshot(key);
      throw err;
    }
    s.known.set(key, entry);
    entries.set(key, entry);
    s.progress.files.done++;
    s.report();
  });
  return keys.map((k) => entries.get(k)!);
}

/**
 * Removes the backups the policy no longer keeps, unfinished ones, and files and chunks no kept
 * backup refers to. `present`: the files and chunks in the target, as listed at the start and
 * written since (no one else writes there while the backup holds the lock).
 */
async function applyRetention(target: BackupTarget, catalogue: Awaited<ReturnType<typeof readCatalogue>>, latest: Manifest, policy: RetentionPolicy, present: { files: Set<string>; chunks: Set<string> }): Promise<string[]> {
  const complete = [latest, ...catalogue.complete];
  const keep = backupsToKeep(
    complete.map((m) => ({ id: m.id, created: new Date(m.created) })),
    policy,
  );
  const removed: string[] = [];
  for (const m of catalogue.complete) {
    if (keep.has(m.id)) continue;
    // The manifest first: from then on the backup counts as unfinished, and goes whole next time if this is interrupted.
    await target.remove([backupFolder(m.id) + MANIFEST_OBJECT]);
    await target.remove((catalogue.objects.get(m.id) ?? []).filter((n) => !n.endsWith(MANIFEST_OBJECT)));
    removed.push(m.id);
  }
  for (const id of catalogue.incomplete) await target.remove(catalogue.objects.get(id) ?? []);
  // A backup whose manifest cannot be read keeps its files: it may still be read some day.
  if (catalogue.unreadable.length) return removed;
  const used = new Set<string>();
  const usedChunks = new Set<string>();
  for (const m of complete) {
    if (!keep.has(m.id)) continue;
    for (const f of m.files) used.add(f[0]);
    for (const c of m.database.chunks ?? []) usedChunks.add(c[0]);
  }
  await target.remove([...present.files].filter((key) => !used.has(key)).map(fileObject));
  await target.remove([...present.chunks].filter((name) => !usedChunks.has(name)).map(chunkObject));
  return removed;
}

export { BackupError };
