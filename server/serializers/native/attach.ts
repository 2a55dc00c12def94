import type { AttachRow } from '../../store/rows.js';
import type { AttachListingRow } from '../../store/attachments.js';
import { pickAsStrings } from './ints.js';

const ACL = ['allow_cid', 'allow_gid', 'deny_cid', 'deny_gid'] as const;

/** The files listing form (seed §2.2): no creator, os_path, display_path, content, start, length. */
const LISTING_FIELDS: readonly (keyof AttachListingRow)[] = ['id', 'aid', 'uid', 'hash', 'filename', 'filetype', 'filesize', 'revision', 'folder', 'flags', 'is_dir', 'is_photo', 'os_storage', 'created', 'edited', ...ACL];

/** Every column but content, in the seed's order. */
const META_FIELDS = [
  'id', 'aid', 'uid', 'hash', 'creator', 'filename', 'filetype', 'filesize', 'revision', 'folder', 'flags', 'is_dir', 'is_photo',
  'os_storage', 'os_path', 'display_path', 'created', 'edited', ...ACL,
] as const;

export function attachListing(row: AttachListingRow): Record<string, string> {
  return pickAsStrings(row as unknown as Record<string, unknown>, LISTING_FIELDS);
}

/** filemeta: the whole record except its content. */
export function attachMeta(row: AttachRow): Record<string, string> {
  return pickAsStrings(row as unknown as Record<string, unknown>, META_FIELDS);
}

/** The record with `content` (base64 of the bytes, or the storage path in exports) placed after display_path. */
export function attachWithContent(row: AttachRow, content: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(attachMeta(row))) {
    out[k] = v;
    if (k === 'display_path') out.content = content;
  }
  return out;
}

/** filedata: the record with one chunk; start and length are JSON numbers (seed §2.2). Folders have no chunk. */
export function attachChunk(row: AttachRow, chunk: { content: string; start: number; length: number } | undefined): Record<string, string | number> {
  if (!chunk) return attachWithContent(row, '');
  return { ...attachWithContent(row, chunk.content), start: chunk.start, length: chunk.length };
}
