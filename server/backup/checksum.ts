import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Transform, type Readable } from 'node:stream';

/** A pass-through that counts the bytes and computes their SHA-256 on the way. */
export function checksumTap(onBytes: (n: number) => void = () => {}): Transform & { result(): { size: number; sha256: string } } {
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      onBytes(chunk.length);
      done(null, chunk);
    },
  });
  let digest: string | undefined;
  return Object.assign(tap, { result: () => ({ size, sha256: (digest ??= hash.digest('hex')) }) });
}

/** The size and SHA-256 of a stream's bytes. */
export async function checksumOf(stream: Readable): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

export const checksumOfFile = (path: string) => checksumOf(createReadStream(path));
