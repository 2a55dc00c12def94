import type { Context } from 'koa';
import type { Hub } from '../hub-context.js';
import { HttpError, notFound } from '../http/errors.js';

export interface StoredFile {
  /** Storage key of the bytes. */
  key: string;
  type: string;
  /** Content-Disposition header value, when one is wanted. */
  disposition?: string;
}

/** A single 'bytes=a-b' / 'bytes=a-' / 'bytes=-n' range within `size`; undefined to send the whole file; 'unsatisfiable'. */
export function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined; // several ranges or malformed: the whole file is a valid answer
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/**
 * Sends a stored file with its type, a strong ETag (keys are never reused for other bytes),
 * private revalidated caching, 304 for a matching If-None-Match, and single byte ranges.
 */
export async function sendStored(ctx: Context, hub: Hub, file: StoredFile): Promise<void> {
  const size = await hub.files.size(file.key);
  if (size === undefined) throw notFound("the file's data is missing");
  const etag = `"${file.key}"`;
  ctx.set('ETag', etag);
  ctx.set('Cache-Control', 'private, no-cache');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Accept-Ranges', 'bytes');
  if (file.disposition) ctx.set('Content-Disposition', file.disposition);
  ctx.type = file.type;
  if (ctx.get('if-none-match').split(',').map((s) => s.trim().replace(/^W\//, '')).includes(etag)) {
    ctx.status = 304;
    return;
  }
  const rangeHeader = ctx.get('range');
  const ifRange = ctx.get('if-range');
  const range = rangeHeader && (!ifRange || ifRange === etag) ? parseRange(rangeHeader, size) : undefined;
  if (range === 'unsatisfiable') throw new HttpError(416, 'Range not satisfiable', { 'Content-Range': `bytes */${size}` });
  if (range) {
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
    ctx.length = range.end - range.start + 1;
    if (ctx.method !== 'HEAD') ctx.body = hub.files.stream(file.key, range);
    return;
  }
  ctx.status = 200;
  ctx.length = size;
  // HEAD answers with the headers only; no stream is opened.
  if (ctx.method !== 'HEAD') ctx.body = hub.files.stream(file.key);
}
