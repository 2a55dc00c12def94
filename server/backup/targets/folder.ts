import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomToken } from '../../util/ids.js';
import { BackupError, MissingObjectError } from '../errors.js';
import type { BackupTarget } from './target.js';

/** A file-system failure in words for the owner. */
function reason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return 'the disk is full';
    case 'ENOTDIR':
    case 'EEXIST':
      return 'a file is in the way where a folder should be';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the disk is read-only';
    case 'EIO':
      return 'the disk fails to write (input/output error)';
    default:
      return e.message ?? String(err);
  }
}

async function syncFile(path: string): Promise<void> {
  const fh = await open(path, 'r+');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Objects written but not yet renamed into place; whatever is there when a backup starts was interrupted. */
const PARTIAL = '.partial';

/**
 * A folder as a target: another disk, a NAS mount, a synced folder. Each object is written under a
 * temporary name, flushed to the disk, then renamed into place.
 */
export class FolderTarget implements BackupTarget {
  readonly root: string;
  readonly leavesMachine = false;

  constructor(readonly description: string) {
    this.root = resolve(description);
  }

  private path(name: string): string {
    const path = resolve(this.root, ...name.split('/'));
    if (!path.startsWith(this.root + sep)) throw new BackupError(`not an object name: ${name}`);
    return path;
  }

  async prepare(): Promise<void> {
    try {
      await rm(join(this.root, PARTIAL), { recursive: true, force: true });
      await mkdir(join(this.root, PARTIAL), { recursive: true });
    } catch (err) {
      throw new BackupError(`cannot write to the folder ${this.description}: ${reason(err)}`);
    }
  }

  async list(prefix: string): Promise<string[]> {
    const dir = this.path(prefix.replace(/\/+$/, ''));
    let entries;
    try {
      entries = await readdir(dir, { recursive: true, withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    return entries.filter((e) => e.isFile()).map((e) => relative(this.root, join(e.parentPath ?? (e as unknown as { path: string }).path, e.name)).split(sep).join('/'));
  }

  async read(name: string): Promise<Readable> {
    const stream = createReadStream(this.path(name));
    // Opening is asynchronous: wait for it so that a missing object is told apart at once.
    await new Promise<void>((resolveOpen, reject) => {
      stream.once('open', () => resolveOpen());
      stream.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'ENOENT' ? new MissingObjectError(name) : err));
    });
    return stream;
  }

  async write(name: string, body: Readable): Promise<void> {
    const dest = this.path(name);
    const tmp = join(this.root, PARTIAL, randomToken(12));
    try {
      await pipeline(body, createWriteStream(tmp, { flags: 'wx' }));
      await syncFile(tmp);
      await mkdir(dirname(dest), { recursive: true });
      await rename(tmp, dest);
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => undefined);
      // A read error of the source (a file gone from the store) is the caller's to tell.
      if ((err as NodeJS.ErrnoException).code && !(err as NodeJS.ErrnoException).path?.startsWith(this.root)) throw err;
      throw new BackupError(`writing ${name} to ${this.description} failed: ${reason(err)}`);
    }
  }

  async remove(names: string[]): Promise<void> {
    const dirs = new Set<string>();
    for (const name of names) {
      const path = this.path(name);
      await rm(path, { force: true });
      dirs.add(dirname(path));
    }
    // A removed backup's own folder goes with its last object; shared folders stay while used.
    for (const dir of dirs) if (dir !== this.root) await rmdir(dir).catch(() => undefined);
  }

  close(): void {}
}
