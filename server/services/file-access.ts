import type { Hub } from '../hub-context.js';
import type { AttachRow, ChannelRow, PhotoRow } from '../store/rows.js';
import { findVisibleAttachByPrefix, getAttachByHash, getVisibleAttach } from '../store/attachments.js';
import { getVisiblePhotoScale } from '../store/photos.js';
import { badRequest, HttpError, notFound } from '../http/errors.js';
import { BufferPool } from '../util/buffer-pool.js';

/**
 * Largest number of bytes one API response carries inline (base64 in JSON); larger files are
 * read in chunks with filedata's start and length.
 */
export const MAX_INLINE_BYTES = 32 * 1024 * 1024;

/** A file record (exact hash) the channel may see: its own, or another channel's admitted by the ACL. 404 otherwise. */
export function visibleAttach(hub: Hub, channel: ChannelRow, hash: string): AttachRow {
  const row = getVisibleAttach(hub.db, hash, channel.channel_hash);
  if (!row) throw notFound('file not found');
  return row;
}

/** The first visible file record whose hash starts with `prefix` (own files first, then by id). */
export function visibleAttachByPrefix(hub: Hub, channel: ChannelRow, prefix: string): AttachRow {
  const row = findVisibleAttachByPrefix(hub.db, prefix, channel.channel_hash, channel.channel_id);
  if (!row) throw notFound('file not found');
  return row;
}

/** One scale of a photo the observer (xchan hash, '' anonymous) may see. 404 otherwise. */
export function visiblePhoto(hub: Hub, observer: string, resourceId: string, scale: number): PhotoRow {
  const row = getVisiblePhotoScale(hub.db, resourceId, scale, observer);
  if (!row) throw notFound('photo not found');
  return row;
}

function missingData(): HttpError {
  return notFound("the file's data is missing from the attachment store");
}

/** Bytes [start, start + length) of a stored row's file (length undefined: to the end). */
export async function readStored(hub: Hub, content: string, start = 0, length?: number): Promise<Buffer> {
  return inStore(hub, content, (key) => hub.files.read(key, start, length));
}

async function inStore<T>(hub: Hub, content: string, read: (key: string) => Promise<T>): Promise<T> {
  const key = hub.files.keyOf(content);
  if (!key) throw missingData();
  try {
    return await read(key);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw missingData();
    throw err;
  }
}

/** Reads of up to 1 MiB reuse buffers; larger chunks get buffers of their own. */
export const CHUNK_BUFFER_BYTES = 1024 * 1024;
const chunkReads = new BufferPool(CHUNK_BUFFER_BYTES, 4);

/**
 * Runs `use` on a chunk of a file for filedata (length 0 or absent: to the end). The bytes are in
 * a reused buffer, valid only during the call. Refuses chunks too large to send inline.
 */
export async function withChunk<T>(hub: Hub, row: AttachRow, start: number, length: number | undefined, use: (data: Buffer) => T): Promise<T> {
  const available = Math.max(0, row.filesize - start);
  const wanted = length && length > 0 ? Math.min(length, available) : available;
  if (wanted > MAX_INLINE_BYTES) throw badRequest(`chunk too large: at most ${MAX_INLINE_BYTES} bytes per request; use start and length`);
  if (wanted === 0) return use(Buffer.alloc(0));
  const buffer = chunkReads.take(wanted);
  try {
    const read = await inStore(hub, row.content, (key) => hub.files.readInto(key, start, buffer.subarray(0, wanted)));
    return use(buffer.subarray(0, read));
  } finally {
    chunkReads.give(buffer);
  }
}

/** A whole file as base64 ('' for folders); 400 when it is too large to send inline. */
export async function readWhole(hub: Hub, row: AttachRow): Promise<string> {
  if (row.is_dir) return '';
  if (row.filesize > MAX_INLINE_BYTES) throw badRequest(`file too large to send whole (${row.filesize} bytes); read it with filedata in chunks`);
  return (await readStored(hub, row.content)).toString('base64');
}

/** The folders from the top down to this record, then the record itself (file/export). */
export function attachPath(hub: Hub, row: AttachRow): AttachRow[] {
  const chain: AttachRow[] = [row];
  const seen = new Set([row.hash]);
  let folder = row.folder;
  while (folder && !seen.has(folder)) {
    const parent = getAttachByHash(hub.db, folder);
    if (!parent || parent.uid !== row.uid) break;
    seen.add(folder);
    chain.unshift(parent);
    folder = parent.folder;
  }
  return chain;
}
