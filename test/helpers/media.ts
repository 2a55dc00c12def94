import sharp from 'sharp';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestHub } from './hub.js';
import type { FileSource } from '../../server/services/attachments.js';

/** A solid-colour test image in the given format. */
export function makeImage(width: number, height: number, format: 'jpeg' | 'png' | 'gif' | 'webp' = 'jpeg', colour = '#c33'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } }).toFormat(format).toBuffer();
}

let dir: string | undefined;

/** Writes bytes to a fresh temporary file, as an upload's temporary file would be (the services move it away). */
export async function tempUpload(data: Uint8Array | string, originalFilename: string, mimetype: string | null = null): Promise<FileSource> {
  dir ??= await mkdtemp(join(tmpdir(), 'hearth-upload-'));
  const filepath = join(dir, `${Date.now()}-${Math.random().toString(16).slice(2)}`);
  await writeFile(filepath, data);
  return { filepath, originalFilename, mimetype };
}

/** A multipart body with files and fields for fetch(). */
export function form(fields: Record<string, string | string[]>, files: Record<string, { data: Uint8Array | string; name: string; type?: string }> = {}): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) f.append(k, one);
  for (const [k, file] of Object.entries(files)) f.append(k, new Blob([typeof file.data === 'string' ? file.data : new Uint8Array(file.data)], { type: file.type ?? 'application/octet-stream' }), file.name);
  return f;
}

/** GET a native or compat path as JSON, asserting nothing; returns status and parsed body (undefined when not JSON). */
export async function getJson(t: TestHub, path: string, init: RequestInit & { as?: string } = {}): Promise<{ status: number; body: any; res: Response }> {
  const res = await t.request(path, init);
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, res };
}
