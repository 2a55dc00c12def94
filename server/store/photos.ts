import { allWide, stmt, type Db } from '../db/open.js';
import type { ItemRow, PhotoRow } from './rows.js';
import { visibleToSql } from './acl.js';
import type { AccessLists } from '../services/acl.js';
import type { ListingCursor, ListingSlice } from './attachments.js';

export type NewPhoto = Omit<PhotoRow, 'id'>;

const COLUMNS = [
  'aid', 'uid', 'xchan', 'resource_id', 'created', 'edited', 'expires', 'title', 'description', 'album', 'filename', 'mimetype',
  'height', 'width', 'filesize', 'content', 'imgscale', 'photo_usage', 'profile', 'is_nsfw', 'os_storage', 'os_path',
  'display_path', 'photo_flags', 'allow_cid', 'allow_gid', 'deny_cid', 'deny_gid',
] as const;
const INSERT_SQL = `INSERT INTO photo (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => '@' + c).join(', ')})`;

/** photo.photo_usage values. */
export const PHOTO_NORMAL = 0;
export const PHOTO_PROFILE = 1;

const INSERT_WITH_ID_SQL = `INSERT INTO photo (id, ${COLUMNS.join(', ')}) VALUES (@id, ${COLUMNS.map((c) => '@' + c).join(', ')})`;

/** Stores a photo scale; `id` is an id taken with reservePhotoId, or a new one when absent. */
export function insertPhoto(db: Db, row: NewPhoto, id?: number): PhotoRow {
  const rowid = id === undefined ? Number(stmt(db, INSERT_SQL).run(row).lastInsertRowid) : (stmt(db, INSERT_WITH_ID_SQL).run({ ...row, id }), id);
  return stmt<[number], PhotoRow>(db, 'SELECT * FROM photo WHERE id = ?').get(rowid)!;
}

/**
 * Takes the next photo id for a photo that is stored later (a chunked media upload answers its
 * media id before the picture arrives). The photo table's AUTOINCREMENT counter moves past it, so
 * no other row ever gets it; an id whose photo never comes stays unused.
 */
export function reservePhotoId(db: Db): number {
  return db.transaction(() => {
    const moved = stmt<[], { seq: number }>(db, "UPDATE sqlite_sequence SET seq = seq + 1 WHERE name = 'photo' RETURNING seq").get();
    if (moved) return moved.seq;
    const max = stmt<[], { n: number | null }>(db, 'SELECT max(id) AS n FROM photo').get()!.n ?? 0;
    stmt(db, "INSERT INTO sqlite_sequence (name, seq) VALUES ('photo', ?)").run(max + 1);
    return max + 1;
  })();
}

export function getPhotoById(db: Db, id: number): PhotoRow | undefined {
  return stmt<[number], PhotoRow>(db, 'SELECT * FROM photo WHERE id = ?').get(id);
}

/** Every scale of a photo, smallest scale number first. */
export function getPhotoScales(db: Db, resourceId: string): PhotoRow[] {
  return stmt<[string], PhotoRow>(db, 'SELECT * FROM photo WHERE resource_id = ? ORDER BY imgscale').all(resourceId);
}

/** One scale of a photo, if `observer` may see it (own channel or admitted by the ACL). */
export function getVisiblePhotoScale(db: Db, resourceId: string, scale: number, observer: string): PhotoRow | undefined {
  return stmt<{ resourceId: string; scale: number; observer: string }, PhotoRow>(
    db,
    `SELECT * FROM photo WHERE resource_id = @resourceId AND imgscale = @scale AND ${visibleToSql('photo')}`,
  ).get({ resourceId, scale, observer });
}

/** Every scale of a photo, if `observer` may see it. */
export function getVisiblePhotoScales(db: Db, resourceId: string, observer: string): PhotoRow[] {
  return stmt<{ resourceId: string; observer: string }, PhotoRow>(
    db,
    `SELECT * FROM photo WHERE resource_id = @resourceId AND ${visibleToSql('photo')} ORDER BY imgscale`,
  ).all({ resourceId, observer });
}

/** The columns a photos listing shows (and id, where the next slice resumes). */
const PHOTO_LISTING_COLUMNS = [
  'id', 'resource_id', 'created', 'edited', 'title', 'description', 'album', 'filename', 'mimetype', 'height', 'width', 'filesize',
  'imgscale', 'photo_usage', 'allow_cid', 'allow_gid', 'deny_cid', 'deny_gid',
] as const;

export type PhotoListingRow = Pick<PhotoRow, (typeof PHOTO_LISTING_COLUMNS)[number]>;

/**
 * The listed columns of a slice of a channel's photo rows (one per scale), normal and profile
 * photos, optionally of one album, oldest first (created, id), read in order from an index.
 * Building whole rows cost three times the query for a few thousand photos.
 */
export function listPhotoRows(db: Db, uid: number, album: string | undefined, slice: ListingSlice): PhotoListingRow[] {
  const where = ['uid = @uid', 'photo_usage IN (0, 1)'];
  const params: Record<string, unknown> = { uid, limit: slice.limit, offset: slice.offset ?? 0 };
  if (album !== undefined) {
    where.push('album = @album');
    params.album = album;
  }
  if (slice.after) {
    // A lower bound on created enters the index where the slice resumes; rows of that same time already read are passed over by id.
    where.push('created >= @afterCreated', '(created > @afterCreated OR id > @afterId)');
    params.afterCreated = slice.after.created;
    params.afterId = slice.after.id;
  }
  const sql = `SELECT ${PHOTO_LISTING_COLUMNS.join(', ')} FROM photo WHERE ${where.join(' AND ')} ORDER BY created, id LIMIT @limit + 0 OFFSET @offset`;
  return allWide<PhotoListingRow>(db, sql, params);
}

export interface PhotoListRow extends Pick<PhotoRow, 'id' | 'created' | 'resource_id' | 'album' | 'filename' | 'mimetype'> {
  /** The scale lists show: 2 for ordinary photos, 5 for profile photos, else the last there is. */
  thumb_scale: number;
  thumb_mimetype: string;
}

/** Which photos a list of photos shows: one album's, or each album's first photo; a slice of them. */
export interface PhotoResourceQuery {
  album?: string;
  /** Only the first photo of each album (oldest), as its cover. */
  covers?: boolean;
  limit?: number;
  offset?: number;
  /** Resume just after this photo (the listing's order is created, id). */
  after?: ListingCursor;
}

/**
 * One row per photo of a channel (its smallest scale number) with its thumbnail scale, oldest
 * first; only the columns listings show (every column of every row cost more than the query).
 */
export function listPhotoResources(db: Db, uid: number, q: PhotoResourceQuery = {}): PhotoListRow[] {
  const where = ['p.uid = @uid', 'p.photo_usage IN (0, 1)', 'p.imgscale = (SELECT min(imgscale) FROM photo q WHERE q.resource_id = p.resource_id)'];
  const params: Record<string, unknown> = { uid, limit: q.limit ?? -1, offset: q.offset ?? 0 };
  if (q.album !== undefined) {
    where.push('p.album = @album');
    params.album = q.album;
  }
  if (q.after) {
    where.push('p.created >= @afterCreated', '(p.created > @afterCreated OR p.id > @afterId)');
    params.afterCreated = q.after.created;
    params.afterId = q.after.id;
  }
  if (q.covers) {
    where.push(`p.id IN (SELECT (SELECT c.id FROM photo c WHERE c.uid = @uid AND c.album = a.album AND c.photo_usage IN (0, 1) ORDER BY c.created, c.id LIMIT 1)
      FROM photo_album a WHERE a.uid = @uid)`);
  }
  return stmt<Record<string, unknown>, PhotoListRow>(
    db,
    `SELECT p.id, p.created, p.resource_id, p.album, p.filename, p.mimetype, t.imgscale AS thumb_scale, t.mimetype AS thumb_mimetype
     FROM photo p JOIN photo t ON t.id = coalesce(
       (SELECT s.id FROM photo s WHERE s.resource_id = p.resource_id AND s.imgscale = 2),
       (SELECT s.id FROM photo s WHERE s.resource_id = p.resource_id AND s.imgscale = 5),
       (SELECT s.id FROM photo s WHERE s.resource_id = p.resource_id ORDER BY s.imgscale DESC LIMIT 1))
     WHERE ${where.join(' AND ')}
     ORDER BY p.created, p.id LIMIT @limit + 0 OFFSET @offset`,
  ).all(params);
}

/**
 * Albums of a channel with the number of photos in each, by name ('' is the root album): the
 * numbers kept by migration 050's triggers, not counted from the photos on each read.
 */
export function listAlbums(db: Db, uid: number): { album: string; total: number }[] {
  return stmt<[number], { album: string; total: number }>(db, 'SELECT album, total FROM photo_album WHERE uid = ? ORDER BY album').all(uid);
}

/** Resource ids of the channel's photos in an album. */
export function albumResources(db: Db, uid: number, album: string): string[] {
  return stmt<[number, string], { resource_id: string }>(db, 'SELECT DISTINCT resource_id FROM photo WHERE uid = ? AND album = ? ORDER BY resource_id').all(uid, album).map((r) => r.resource_id);
}

export type PhotoUpdate = Partial<Pick<PhotoRow, 'title' | 'description' | 'album' | 'filename' | 'edited' | 'photo_usage' | 'profile' | 'photo_flags' | 'display_path' | 'os_path'> & AccessLists>;

/** Updates columns shared by every scale of a photo. */
export function updatePhotoResource(db: Db, resourceId: string, fields: PhotoUpdate): void {
  const keys = Object.keys(fields).filter((k) => (COLUMNS as readonly string[]).includes(k));
  if (keys.length) stmt(db, `UPDATE photo SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE resource_id = @resourceId`).run({ ...fields, resourceId });
}

export function deletePhotoResource(db: Db, resourceId: string): void {
  stmt(db, 'DELETE FROM photo WHERE resource_id = ?').run(resourceId);
}

/** The channel's current profile photo (usage profile), if any. */
export function getProfilePhotoScale(db: Db, uid: number, scale: number): PhotoRow | undefined {
  return stmt<[number, number], PhotoRow>(db, 'SELECT * FROM photo WHERE uid = ? AND photo_usage = 1 AND imgscale = ? ORDER BY id DESC LIMIT 1').get(uid, scale);
}

/** Turns the channel's earlier profile photos into ordinary photos. */
export function demoteProfilePhotos(db: Db, uid: number, exceptResource: string): void {
  stmt(db, 'UPDATE photo SET photo_usage = 0, profile = 0 WHERE uid = ? AND photo_usage = 1 AND resource_id != ?').run(uid, exceptResource);
}

/** Points the default profile and the channel's identity at a new profile photo. */
export function setProfilePhotoUrls(db: Db, uid: number, hash: string, p: { photo: string; thumb: string; large: string; medium: string; small: string; mimetype: string; when: string }): void {
  stmt(db, 'UPDATE profile SET photo = ?, thumb = ? WHERE uid = ? AND is_default = 1').run(p.photo, p.thumb, uid);
  stmt(db, 'UPDATE xchan SET xchan_photo_l = ?, xchan_photo_m = ?, xchan_photo_s = ?, xchan_photo_mimetype = ?, xchan_photo_date = ? WHERE xchan_hash = ?').run(
    p.large, p.medium, p.small, p.mimetype, p.when, hash,
  );
}

export function updatePhotoScale(db: Db, id: number, fields: Partial<Pick<PhotoRow, 'content' | 'width' | 'height' | 'filesize' | 'mimetype' | 'edited'>>): void {
  const keys = Object.keys(fields).filter((k) => (COLUMNS as readonly string[]).includes(k));
  if (keys.length) stmt(db, `UPDATE photo SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run({ ...fields, id });
}

/** The hidden thread-top item that represents a photo (for likes and comments). */
export function getPhotoItem(db: Db, uid: number, resourceId: string): ItemRow | undefined {
  // Left to itself SQLite reads every thread top of the channel (item_uid_created_idx) to find it.
  return stmt<[number, string], ItemRow>(
    db,
    "SELECT * FROM item INDEXED BY item_resource_idx WHERE uid = ? AND resource_type = 'photo' AND resource_id = ? AND item_thread_top = 1 ORDER BY item_deleted, id LIMIT 1",
  ).get(uid, resourceId);
}

/** The full-size scale (0) of each of these photos, by resource id (= attach hash). */
export function fullScalesOf(db: Db, resourceIds: string[]): Map<string, PhotoRow> {
  if (!resourceIds.length) return new Map();
  const rows = stmt<[string], PhotoRow>(db, 'SELECT * FROM photo WHERE resource_id IN (SELECT value FROM json_each(?)) AND imgscale = 0').all(JSON.stringify(resourceIds));
  return new Map(rows.map((r) => [r.resource_id, r]));
}

/** Remembers a deleted photo, so that posts showing it can say so. */
export function rememberDeletedPhoto(db: Db, resourceId: string, uid: number, filename: string, when: string): void {
  stmt(db, 'INSERT OR REPLACE INTO deleted_photo (resource_id, uid, filename, deleted) VALUES (?, ?, ?, ?)').run(resourceId, uid, filename, when);
}

/** Which of these resource ids belong to deleted photos. */
export function deletedPhotoIds(db: Db, resourceIds: string[]): Set<string> {
  const found = new Set<string>();
  for (const id of resourceIds) if (stmt<[string], number>(db, 'SELECT 1 FROM deleted_photo WHERE resource_id = ?').pluck().get(id)) found.add(id);
  return found;
}
