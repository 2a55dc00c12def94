import { open } from 'node:fs/promises';
import { extname } from 'node:path';

const SIGNATURES: { bytes: number[]; offset?: number; type: string }[] = [
  { bytes: [0xff, 0xd8, 0xff], type: 'image/jpeg' },
  { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], type: 'image/png' },
  { bytes: [0x47, 0x49, 0x46, 0x38], type: 'image/gif' },
  { bytes: [0x57, 0x45, 0x42, 0x50], offset: 8, type: 'image/webp' },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], type: 'application/pdf' },
];

const BY_EXTENSION: Record<string, string> = {
  '.txt': 'text/plain', '.md': 'text/markdown', '.csv': 'text/csv', '.json': 'application/json', '.pdf': 'application/pdf',
  '.zip': 'application/zip', '.gz': 'application/gzip', '.mp3': 'audio/mpeg', '.ogg': 'audio/ogg', '.wav': 'audio/wav',
  '.mp4': 'video/mp4', '.webm': 'video/webm', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png',
  '.gif': 'image/gif', '.webp': 'image/webp', '.svg': 'image/svg+xml', '.html': 'text/html', '.htm': 'text/html',
};

const MIME_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** The type the first bytes of a file reveal (images and PDF), if any. */
export async function sniffFileType(path: string): Promise<string | undefined> {
  const fh = await open(path, 'r');
  let head: Buffer;
  try {
    const buf = Buffer.alloc(16);
    const { bytesRead } = await fh.read(buf, 0, 16, 0);
    head = buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
  return SIGNATURES.find((s) => s.bytes.every((b, i) => head[(s.offset ?? 0) + i] === b))?.type;
}

/**
 * The mime type to record for an upload: what the bytes say for images and PDF; otherwise the
 * type the client declared, unless it claims an image the bytes do not show or is malformed;
 * then a guess from the file name; application/octet-stream when nothing is known.
 */
export function chooseFiletype(sniffed: string | undefined, declared: string | null | undefined, filename: string): string {
  if (sniffed) return sniffed;
  const d = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  if (d && MIME_PATTERN.test(d) && !d.startsWith('image/') && d !== 'application/octet-stream') return d;
  const byName = BY_EXTENSION[extname(filename).toLowerCase()];
  if (byName && !(byName.startsWith('image/') && byName !== 'image/svg+xml')) return byName;
  return 'application/octet-stream';
}

/** File extension for an image mime type, as used in photo URLs. */
export function imageExtension(mimetype: string): string {
  return { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' }[mimetype] ?? 'jpg';
}
