import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat, copyFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { HttpError } from '../http/errors.js';
import { randomHex64, randomToken } from '../util/ids.js';
import { listStoreKeys } from './list-keys.js';

const KEY_PATTERN = /^[0-9a-f]{64}$/;

/** Turns file-system failures into clear HTTP errors (a full or read-only disk is not a bug). */
export function storageError(err: unknown): Error {
  if (err instanceof HttpError) return err;
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG') return new HttpError(507, 'The attachment store is full; nothing was saved');
  // A directory of the store replaced by a file, or removed, or a failing disk: not writable.
  if (code && STORE_UNWRITABLE.has(code)) return new HttpError(503, 'The attachment store is not writable; nothing was saved');
  return err as Error;
}

/** Removes a temporary file; a store too broken to remove it must not hide the error that matters. */
async function discard(path: string): Promise<void> {
  await rm(path, { force: true }).catch(() => undefined);
}

const STORE_UNWRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EISDIR', 'ENOENT', 'EEXIST', 'EIO', 'EMFILE', 'ENFILE']);

/**
 * Attachment bytes on disk under <data>/store, one file per key (64 hex characters), sharded by
 * the first two bytes. A file is written under a temporary name, fsynced, then renamed into place,
 * so a key's file is either complete or absent. Rows that refer to a key are inserted only after
 * its file is in place; a crash in between leaves an orphan file, which the startup check removes.
 */
export class AttachmentStore {
  private readonly tmpDir: string;
  private readonly keyWatchers = new Set<Set<string>>();

  constructor(public readonly root: string) {
    this.tmpDir = join(root, '.tmp');
  }

  async init(): Promise<void> {
    await mkdir(this.tmpDir, { recursive: true });
    // Leftovers of writes that never finished.
    await rm(this.tmpDir, { recursive: true, force: true });
    await mkdir(this.tmpDir, { recursive: true });
  }

  static isKey(key: string): boolean {
    return KEY_PATTERN.test(key);
  }

  /** Relative path of a key's file, as stored in attach.content / photo.content. */
  relativePath(key: string): string {
    if (!KEY_PATTERN.test(key)) throw new Error(`not a storage key: ${key}`);
    return join('store', key.slice(0, 2), key.slice(2, 4), key);
  }

  path(key: string): string {
    if (!KEY_PATTERN.test(key)) throw new Error(`not a storage key: ${key}`);
    return join(this.root, key.slice(0, 2), key.slice(2, 4), key);
  }

  /** Key of a stored relative path ('store/ab/cd/<key>'), or undefined. */
  keyOf(relativePath: string): string | undefined {
    const key = relativePath.slice(relativePath.lastIndexOf('/') + 1);
    return KEY_PATTERN.test(key) ? key : undefined;
  }

  /** Opens a file whose contents the store writes or flushes (the one place a disk fault shows up first). */
  protected async openForWrite(path: string, flags: string): Promise<FileHandle> {
    return open(path, flags);
  }

  private async install(tmp: string, key: string): Promise<void> {
    const dest = this.path(key);
    const dir = join(this.root, key.slice(0, 2), key.slice(2, 4));
    await mkdir(dir, { recursive: true });
    await rename(tmp, dest);
    const d = await open(dir, 'r');
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  }

  private async writeTemp(fill: (fh: FileHandle) => Promise<void>): Promise<string> {
    const tmp = join(this.tmpDir, randomToken(12));
    let fh: FileHandle | undefined;
    try {
      fh = await this.openForWrite(tmp, 'wx');
      await fill(fh);
      await fh.sync();
      await fh.close();
      fh = undefined;
      return tmp;
    } catch (err) {
      await fh?.close().catch(() => undefined);
      await discard(tmp);
      throw storageError(err);
    }
  }

  /** Stores bytes under a new key; returns the key. */
  async putBuffer(data: Uint8Array): Promise<string> {
    const key = this.newKey();
    const tmp = await this.writeTemp(async (fh) => {
      await fh.writeFile(data);
    });
    await this.installOrDiscard(tmp, key);
    return key;
  }

  /** Stores a copy of a file (an upload's temporary file) under a new key; returns the key. */
  async putFile(source: string): Promise<string> {
    // Uploads already live on the same file system, so a rename usually suffices.
    const { key } = await this.putWritten((tmp) => rename(source, tmp).catch(async () => copyFile(source, tmp)));
    return key;
  }

  /**
   * Stores a file that `write` creates at the path it is given (an encoder writing straight to
   * disk, so that the bytes never sit in memory whole); returns the key and what `write` returned.
   */
  async putWritten<T>(write: (path: string) => Promise<T>): Promise<{ key: string; result: T }> {
    const key = this.newKey();
    const tmp = join(this.tmpDir, randomToken(12));
    let result: T;
    try {
      result = await write(tmp);
      await this.syncToDisk(tmp);
    } catch (err) {
      await discard(tmp);
      throw storageError(err);
    }
    await this.installOrDiscard(tmp, key);
    return { key, result };
  }

  /** Flushes a file written by someone else (a rename, an encoder) to the disk before it is installed. */
  private async syncToDisk(path: string): Promise<void> {
    const fh = await this.openForWrite(path, 'r+');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  }

  private async installOrDiscard(tmp: string, key: string): Promise<void> {
    try {
      await this.install(tmp, key);
    } catch (err) {
      await discard(tmp);
      throw storageError(err);
    }
  }

  async size(key: string): Promise<number | undefined> {
    try {
      return (await stat(this.path(key))).size;
    } catch {
      return undefined;
    }
  }

  /** Reads a byte range [start, start + length) of a key's file. */
  async read(key: string, start = 0, length?: number): Promise<Buffer> {
    const fh = await open(this.path(key), 'r');
    try {
      const size = (await fh.stat()).size;
      const from = Math.min(start, size);
      const buf = Buffer.allocUnsafe(Math.max(0, Math.min(length ?? size - from, size - from)));
      const done = await readFully(fh, buf, from);
      return done === buf.length ? buf : buf.subarray(0, done);
    } finally {
      await fh.close();
    }
  }

  /** Reads from `start` into `target` until it is full or the file ends; the number of bytes read. */
  async readInto(key: string, start: number, target: Buffer): Promise<number> {
    const fh = await open(this.path(key), 'r');
    try {
      return await readFully(fh, target, start);
    } finally {
      await fh.close();
    }
  }

  stream(key: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.path(key), range);
  }

  async remove(key: string): Promise<void> {
    if (KEY_PATTERN.test(key)) await rm(this.path(key), { force: true });
  }

  /** Every key that has a file. */
  listKeys(): Promise<string[]> {
    return listStoreKeys(this.root);
  }

  /**
   * Records the key of every file stored from now on, until stop(). A scan that compares the
   * store with the database while requests are served tells by it a write in progress (file in
   * place, rows not committed yet) from an orphan.
   */
  watchNewKeys(): { readonly keys: ReadonlySet<string>; stop(): void } {
    const keys = new Set<string>();
    this.keyWatchers.add(keys);
    return { keys, stop: () => this.keyWatchers.delete(keys) };
  }

  private newKey(): string {
    const key = randomHex64();
    for (const watcher of this.keyWatchers) watcher.add(key);
    return key;
  }
}

/**
 * Runs a database write that refers to freshly stored keys; when it fails, the files go too, so
 * that neither a row without its file nor a file without its row is left behind.
 */
export async function commitWithFiles<T>(store: AttachmentStore, keys: string[], commit: () => T): Promise<T> {
  try {
    return commit();
  } catch (err) {
    await Promise.all(keys.map((k) => store.remove(k).catch(() => undefined)));
    throw err;
  }
}

async function readFully(fh: FileHandle, target: Buffer, from: number): Promise<number> {
  let done = 0;
  while (done < target.length) {
    const { bytesRead } = await fh.read(target, done, target.length - done, from + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done;
}
