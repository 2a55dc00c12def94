import { createHash, createHmac } from 'node:crypto';
import { open } from 'node:fs/promises';

/**
 * The database copy is kept in a target as chunks of this size, at fixed offsets: SQLite changes a
 * database in place, page by page, so a backup after a few posts finds most chunks unchanged and
 * in the target already. 256 KiB: on the bench's database (300 MB), 100 new posts change ~740
 * pages spread over the file, i.e. 43 MiB of 256 KiB chunks against 98 MiB of 1 MiB ones.
 */
export const CHUNK_SIZE = 256 * 1024;

/**
 * A chunk's name: the SHA-256 of its bytes in a plain target; in an encrypted one, their
 * HMAC-SHA256 with a key derived from the target's secret key (vault.ts), so that the names, which
 * are in clear, tell nothing about the bytes (no one can test a guess of them) beyond which chunks
 * are equal. Either way, equal chunks get one name, and restore checks a chunk by its name.
 */
export function chunkName(bytes: Uint8Array, key: Buffer | undefined): string {
  return (key ? createHmac('sha256', key) : createHash('sha256')).update(bytes).digest('hex');
}

export interface DatabaseChunk {
  name: string;
  offset: number;
  size: number;
}

/**
 * Reads a database copy chunk by chunk: the name of each, and the size and SHA-256 of the whole.
 * `onChunk` gets each chunk's bytes (valid until it returns) and may wait, e.g. for room to write.
 */
export async function readChunks(file: string, key: Buffer | undefined, onChunk: (chunk: DatabaseChunk, bytes: Buffer) => Promise<void>): Promise<{ size: number; sha256: string; chunks: DatabaseChunk[] }> {
  const fh = await open(file, 'r');
  const whole = createHash('sha256');
  const chunks: DatabaseChunk[] = [];
  const buffer = Buffer.allocUnsafe(CHUNK_SIZE);
  let offset = 0;
  try {
    for (;;) {
      let n = 0;
      while (n < CHUNK_SIZE) {
        const { bytesRead } = await fh.read(buffer, n, CHUNK_SIZE - n, offset + n);
        if (bytesRead === 0) break;
        n += bytesRead;
      }
      if (n === 0) break;
      const bytes = buffer.subarray(0, n);
      whole.update(bytes);
      const chunk = { name: chunkName(bytes, key), offset, size: n };
      chunks.push(chunk);
      await onChunk(chunk, bytes);
      offset += n;
      if (n < CHUNK_SIZE) break;
    }
  } finally {
    await fh.close();
  }
  return { size: offset, sha256: whole.digest('hex'), chunks };
}
