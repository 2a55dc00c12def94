import { allWide, stmt, type Db } from '../db/open.js';
import type { AttachRow } from './rows.js';
import { visibleToSql } from './acl.js';

export type NewAttach = Omit<AttachRow, 'id'>;

const COLUMNS = [
  'aid', 'uid', 'hash', 'creator', 'filename', 'filetype', 'filesize', 'revision', 'folder', 'flags', 'is_dir', 'is_photo',
  'os_storage', 'os_path', 'display_path', 'content', 'created', 'edited', 'allow_cid', 'allow_gid', 'deny_cid', 'deny_gid',
] as const;
const INSERT_SQL = `INSERT INTO attach (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => '@' + c).join(', ')})`;

/** attach.flags bit: uploaded for a post whose audience is not applied yet (Hubzilla's editor upload). */
export const ATTACH_PENDING = 1;

/** Escapes LIKE wildcards for a pattern used with ESCAPE '\'. */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => '\\' + c);
}

export function insertAttach(db: Db, row: NewAttach): AttachRow {
  const id = Number(stmt(db, INSERT_SQL).run(row).lastInsertRowid);
  return getAttachById(db, id)!;
}

export function getAttachById(db: Db, id: number): AttachRow | undefined {
  return stmt<[number], AttachRow>(db, 'SELECT * FROM attach WHERE id = ?').get(id);
}

export function getAttachByHash(db: Db, hash: string): AttachRow | undefined {
  return stmt<[string], AttachRow>(db, 'SELECT * FROM attach WHERE hash = ?').get(hash);
}

/** A file record by exact hash, if `observer` (xchan hash) may see it: its own channel's, or admitted by the ACL. */
export function getVisibleAttach(db: Db, hash: string, observer: string): AttachRow | undefined {
  return stmt<{ hash: string; observer: string }, AttachRow>(db, `SELECT * FROM attach WHERE hash = @hash AND ${visibleToSql('attach')}`).get({ hash, observer });
}

/** The first file record (by id; the observer's own channel first) whose hash starts with `prefix`. */
export function findVisibleAttachByPrefix(db: Db, prefix: string, observer: string, ownUid: number): AttachRow | undefined {
  return stmt<{ prefix: string; low: string; observer: string; uid: number }, AttachRow>(
    db,
    // The range lets the hash index narrow the rows (hashes are lowercase hex; LIKE ignores case and
    // alone would scan every file); LIKE keeps the exact matching rule.
    `SELECT * FROM attach WHERE hash >= @low AND hash < @low || CAST(x'ff' AS TEXT) AND hash LIKE @prefix ESCAPE '\\'
       AND ${visibleToSql('attach')} ORDER BY uid = @uid DESC, id LIMIT 1`,
  ).get({ prefix: escapeLike(prefix) + '%', low: prefix.toLowerCase(), observer, uid: ownUid });
}

export interface AttachFilter {
  filehash?: string;
  filename?: string;
  filetype?: string;
  /** Only the entries directly in this folder (its hash; '' is the top level). */
  folder?: string;
  /** Created at or after / at or before (UTC datetimes). */
  since?: string;
  until?: string;
}

/** Where an ordered listing resumes: just after the row with this creation date and id. */
export interface ListingCursor {
  created: string;
  id: number;
}

/** One slice of an ordered listing: at most `limit` rows, after `after` and then `offset` more. */
export interface ListingSlice<C = ListingCursor> {
  limit: number;
  offset?: number;
  after?: C;
}

/** The columns the files listing shows. */
const LISTING_COLUMNS = [
  'id', 'aid', 'uid', 'hash', 'filename', 'filetype', 'filesize', 'revision', 'folder', 'flags', 'is_dir', 'is_photo', 'os_storage',
  'created', 'edited', 'allow_cid', 'allow_gid', 'deny_cid', 'deny_gid',
] as const;

export type AttachListingRow = Pick<AttachRow, (typeof LISTING_COLUMNS)[number]>;

/**
 * The listed columns of a slice of a channel's files and folders, oldest first (created, id),
 * filtered like the native files listing. The (uid, created, id) index reads the slice in order, so
 * it costs the same whatever lies outside it (but an offset, which is stepped over).
 */
export function listAttach(db: Db, uid: number, f: AttachFilter, slice: ListingSlice): AttachListingRow[] {
  const where = ['uid = @uid'];
  const params: Record<string, unknown> = { uid, limit: slice.limit, offset: slice.offset ?? 0 };
  if (f.filehash !== undefined) {
    where.push('hash = @filehash');
    params.filehash = f.filehash;
  }
  if (f.filename) {
    where.push("filename LIKE @filename ESCAPE '\\'");
    params.filename = `%${escapeLike(f.filename)}%`;
  }
  if (f.filetype) {
    where.push("filetype LIKE @filetype ESCAPE '\\'");
    params.filetype = `%${escapeLike(f.filetype)}%`;
  }
  if (f.folder !== undefined) {
    where.push('folder = @folder');
    params.folder = f.folder;
  }
  // One lower bound on created, so that the index is entered right there (of since and where the
  // slice resumes, the later); then the rows of that same time already read are passed over by id.
  const since = slice.after && (!f.since || slice.after.created > f.since) ? slice.after.created : f.since;
  if (since) {
    where.push('created >= @since');
    params.since = since;
  }
  if (f.until) {
    where.push('created <= @until');
    params.until = f.until;
  }
  if (slice.after) {
    where.push('(created > @afterCreated OR id > @afterId)');
    params.afterCreated = slice.after.created;
    params.afterId = slice.after.id;
  }
  return allWide<AttachListingRow>(db, `SELECT ${LISTING_COLUMNS.join(', ')} FROM attach WHERE ${where.join(' AND ')} ORDER BY created, id LIMIT @limit + 0 OFFSET @offset`, params);
}

/**
 * Order of one folder's entries as a file browser shows them: folders first, then by name (case
 * aside); read with an offset only.
 */
export function listFolderByName(db: Db, uid: number, folder: string, slice: { limit: number; offset: number }): AttachListingRow[] {
  return allWide<AttachListingRow>(
    db,
    `SELECT ${LISTING_COLUMNS.join(', ')} FROM attach WHERE uid = @uid AND folder = @folder
     ORDER BY is_dir DESC, filename COLLATE NOCASE, id LIMIT @limit + 0 OFFSET @offset`,
    { uid, folder, limit: slice.limit, offset: slice.offset },
  );
}

export function countAttach(db: Db, uid: number): number {
  return stmt<[number], { n: number }>(db, 'SELECT count(*) AS n FROM attach WHERE uid = ?').get(uid)!.n;
}

/** The channel's file or folder at this 0-based position, oldest first. */
export function attachAtOffset(db: Db, uid: number, offset: number): AttachRow | undefined {
  return stmt<[number, number], AttachRow>(db, 'SELECT * FROM attach WHERE uid = ? ORDER BY created, id LIMIT 1 OFFSET ?').get(uid, offset);
}

/** A top-level folder of the channel by name. */
export function findFolder(db: Db, uid: number, parent: string, name: string): AttachRow | undefined {
  return stmt<[number, string, string], AttachRow>(db, 'SELECT * FROM attach WHERE uid = ? AND folder = ? AND filename = ? AND is_dir = 1 ORDER BY id LIMIT 1').get(uid, parent, name);
}

/** Names in a folder of the channel that start with `stem` (for picking a free name). */
export function namesLike(db: Db, uid: number, folder: string, stem: string): Set<string> {
  return new Set(
    stmt<[number, string, string], { filename: string }>(db, "SELECT filename FROM attach WHERE uid = ? AND folder = ? AND filename LIKE ? ESCAPE '\\'").all(uid, folder, escapeLike(stem) + '%').map((r) => r.filename),
  );
}

export type AttachUpdate = Partial<Pick<AttachRow, 'filename' | 'filetype' | 'filesize' | 'revision' | 'folder' | 'flags' | 'is_photo' | 'os_path' | 'display_path' | 'content' | 'edited' | 'allow_cid' | 'allow_gid' | 'deny_cid' | 'deny_gid'>>;

export function updateAttach(db: Db, id: number, fields: AttachUpdate): void {
  const keys = Object.keys(fields).filter((k) => (COLUMNS as readonly string[]).includes(k));
  if (keys.length) stmt(db, `UPDATE attach SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run({ ...fields, id });
}

export function deleteAttach(db: Db, id: number): void {
  stmt(db, 'DELETE FROM attach WHERE id = ?').run(id);
}

/** Whether a folder of the channel holds nothing. */
export function isEmptyFolder(db: Db, uid: number, hash: string): boolean {
  return stmt<[number, string], { n: number }>(db, 'SELECT count(*) AS n FROM attach WHERE uid = ? AND folder = ?').get(uid, hash)!.n === 0;
}

/** What one of the channel's folders holds directly ('' = the top level). */
export function childrenOf(db: Db, uid: number, folder: string): AttachRow[] {
  return stmt<[number, string], AttachRow>(db, 'SELECT * FROM attach WHERE uid = ? AND folder = ? ORDER BY id').all(uid, folder);
}
