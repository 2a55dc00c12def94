import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { openSqlite } from '../db/native-binding.js';
import { randomToken } from '../util/ids.js';
import { readCatalogue, readManifest } from './catalogue.js';
import { checksumTap } from './checksum.js';
import { chunkName } from './chunks.js';
import { BackupError, DamagedBackupError, MissingObjectError } from './errors.js';
import { backupFolder, backupSize, chunkObject, DATABASE_OBJECT, fileObject, isBackupId, type Manifest } from './manifest.js';
import type { BackupTarget } from './targets/target.js';
import { openVault, readAll, type Vault } from './vault.js';

export interface RestoreOptions {
  target: BackupTarget;
  passphrase?: string;
  /** The backup to restore; the newest complete one when absent. */
  backupId?: string;
  /** A new data folder: absent or empty. */
  dataDir: string;
  onProgress?: (p: { files: { done: number; total: number }; bytes: { done: number; total: number } }) => void;
}

export interface RestoreResult {
  id: string;
  created: string;
  files: number;
  bytes: number;
  seconds: number;
}

async function isEmptyOrAbsent(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw new BackupError(`cannot use ${dir} as the new data folder: ${(err as Error).message}`);
  }
}

async function chooseBackup(target: BackupTarget, vault: Vault, id: string | undefined): Promise<Manifest> {
  if (id !== undefined) {
    if (!isBackupId(id)) throw new BackupError(`not a backup id: ${id} (ids look like 20250131-042000)`);
    try {
      return await readManifest(target, vault, id);
    } catch (err) {
      if (err instanceof MissingObjectError) throw new BackupError(`there is no complete backup ${id} in ${target.description}`);
      throw err;
    }
  }
  const catalogue = await readCatalogue(target, vault);
  const newest = catalogue.complete[0];
  if (!newest) {
    const problem = catalogue.unreadable[0]?.problem;
    throw new BackupError(problem ?? `there is no complete backup in ${target.description}`);
  }
  return newest;
}

/** Copies one object out of the target into a file, and tells what is wrong with it, if anything. */
async function restoreObject(target: BackupTarget, vault: Vault, name: string, dest: string, expected: { size: number; sha256: string }, onBytes: (n: number) => void): Promise<string | undefined> {
  let source: Readable;
  try {
    source = await target.read(name);
  } catch (err) {
    if (err instanceof MissingObjectError) return 'missing';
    throw err;
  }
  const tap = checksumTap(onBytes);
  try {
    await mkdir(dirname(dest), { recursive: true });
    await pipeline(await vault.open(source), tap, createWriteStream(dest, { flags: 'wx' }));
  } catch (err) {
    if (err instanceof BackupError || (err as NodeJS.ErrnoException).syscall) throw err;
    // age refuses altered bytes as it reads them (each chunk carries its tag).
    source.destroy();
    return `damaged: it cannot be decrypted (${(err as Error).message})`;
  }
  const got = tap.result();
  if (got.size !== expected.size) return `damaged: ${got.size} bytes instead of ${expected.size}`;
  if (got.sha256 !== expected.sha256) return 'damaged: its checksum differs from the manifest\'s';
  const fh = await open(dest, 'r+');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
  return undefined;
}

/** A stored chunk's plain bytes, or what is wrong with it. */
async function readChunk(target: BackupTarget, vault: Vault, name: string): Promise<{ bytes: Buffer } | { problem: string }> {
  let source: Readable;
  try {
    source = await target.read(chunkObject(name));
  } catch (err) {
    if (err instanceof MissingObjectError) return { problem: 'missing' };
    throw err;
  }
  try {
    return { bytes: await readAll(await vault.open(source)) };
  } catch (err) {
    if (err instanceof BackupError || (err as NodeJS.ErrnoException).syscall) throw err;
    source.destroy();
    return { problem: `damaged: it cannot be decrypted (${(err as Error).message})` };
  }
}

/** Chunks read ahead of the one being written. */
const AHEAD = 4;

/**
 * Reassembles the database copy of a backup of format 2 from its chunks, in order: each chunk is
 * checked by its size and name (a hash of its bytes), then the whole copy by its checksum. What is
 * wrong, item by item; nothing when it is whole.
 */
async function restoreDatabaseChunks(target: BackupTarget, vault: Vault, database: Manifest['database'], dest: string, onBytes: (n: number) => void): Promise<string[]> {
  const chunks = database.chunks ?? [];
  const problems: string[] = [];
  const reads: (Promise<Awaited<ReturnType<typeof readChunk>>> | undefined)[] = [];
  const readAhead = (i: number) => {
    if (i >= chunks.length) return;
    const read = readChunk(target, vault, chunks[i]![0]);
    read.catch(() => undefined);
    reads[i] = read;
  };
  for (let i = 0; i < AHEAD; i++) readAhead(i);
  const whole = createHash('sha256');
  const fh = await open(dest, 'wx');
  try {
    for (let i = 0; i < chunks.length; i++) {
      const [name, size] = chunks[i]!;
      const got = await reads[i]!;
      reads[i] = undefined;
      readAhead(i + AHEAD);
      let problem = 'problem' in got ? got.problem : undefined;
      if ('bytes' in got) {
        if (got.bytes.length !== size) problem = `damaged: ${got.bytes.length} bytes instead of ${size}`;
        else if (chunkName(got.bytes, vault.chunkKey) !== name) problem = 'damaged: its bytes do not match its name';
      }
      if (problem) problems.push(`the database chunk ${chunkObject(name)} (${i + 1} of ${chunks.length}) is ${problem}`);
      if (problems.length || !('bytes' in got)) continue;
      whole.update(got.bytes);
      await fh.write(got.bytes);
      onBytes(size);
    }
    if (!problems.length && whole.digest('hex') !== database.sha256) problems.push("the database copy, reassembled from its chunks, is damaged: its checksum differs from the manifest's");
    if (!problems.length) await fh.sync();
  } finally {
    await fh.close();
  }
  return problems;
}

/**
 * Restores a backup into a new data folder. Every object is checked against the manifest's
 * checksums as it is copied; a damaged backup is refused whole, naming each thing wrong with it,
 * and nothing is left behind. The folder appears under its name only once all is in and SQLite's
 * own check of the database has passed, so it is never a half-restored hub.
 */
export async function runRestore(opts: RestoreOptions): Promise<RestoreResult> {
  const started = Date.now();
  const dataDir = resolve(opts.dataDir);
  if (!(await isEmptyOrAbsent(dataDir))) throw new BackupError(`${dataDir} is not empty: restore into a new folder (a restore never writes into a data folder that may be in use)`);
  const { target } = opts;
  const vault = await openVault(target, opts.passphrase, { create: false });
  const manifest = await chooseBackup(target, vault, opts.backupId);
  const staging = join(dirname(dataDir), `.${basename(dataDir)}.restoring-${randomToken(6)}`);
  const progress = { files: { done: 0, total: manifest.files.length + 1 }, bytes: { done: 0, total: backupSize(manifest) } };
  const onBytes = (n: number) => {
    progress.bytes.done += n;
    opts.onProgress?.(progress);
  };
  try {
    await mkdir(join(staging, 'store'), { recursive: true });
    const problems: string[] = [];
    if (manifest.database.chunks) {
      problems.push(...(await restoreDatabaseChunks(target, vault, manifest.database, join(staging, 'hearth.db'), onBytes)));
    } else {
      const db = await restoreObject(target, vault, backupFolder(manifest.id) + DATABASE_OBJECT, join(staging, 'hearth.db'), manifest.database, onBytes);
      if (db) problems.push(`the database copy (${backupFolder(manifest.id)}${DATABASE_OBJECT}) is ${db}`);
    }
    progress.files.done++;
    let next = 0;
    const worker = async () => {
      while (next < manifest.files.length) {
        const [key, size, sha256] = manifest.files[next++]!;
        const problem = await restoreObject(target, vault, fileObject(key), join(staging, 'store', key.slice(0, 2), key.slice(2, 4), key), { size, sha256 }, onBytes);
        if (problem) problems.push(`the attachment file ${fileObject(key)} is ${problem}`);
        progress.files.done++;
        opts.onProgress?.(progress);
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    if (problems.length) throw new DamagedBackupError(manifest.id, problems);
    const check = quickCheck(join(staging, 'hearth.db'));
    if (check !== 'ok') throw new DamagedBackupError(manifest.id, [`the database copy fails SQLite's check: ${check}`]);
    await rmdir(dataDir).catch(() => undefined);
    await mkdir(dirname(dataDir), { recursive: true });
    await rename(staging, dataDir);
  } catch (err) {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
  return { id: manifest.id, created: manifest.created, files: manifest.files.length, bytes: backupSize(manifest), seconds: (Date.now() - started) / 1000 };
}

function quickCheck(file: string): string {
  let db;
  try {
    db = openSqlite(file, { readonly: true, fileMustExist: true });
    return String(db.pragma('quick_check', { simple: true }));
  } catch (err) {
    return (err as Error).message;
  } finally {
    db?.close();
  }
}
