import { allWide, stmt, type Db } from '../db/open.js';
import type { ItemRow, NotifyRow } from './rows.js';

/** Item settings the Mastodon API keeps in iconfig (cat 'mastodon'), for many items at once. */
export function mastodonItemConfig(db: Db, ids: number[]): Map<number, Record<string, string>> {
  const out = new Map<number, Record<string, string>>();
  if (!ids.length) return out;
  const rows = allWide<{ iid: number; k: string; v: string }>(db, "SELECT iid, k, v FROM iconfig WHERE cat = 'mastodon' AND iid IN (SELECT value FROM json_each(@ids))", { ids: JSON.stringify(ids) });
  for (const r of rows) {
    const m = out.get(r.iid) ?? {};
    m[r.k] = r.v;
    out.set(r.iid, m);
  }
  return out;
}

/** Channel settings of the Mastodon API (pconfig cat 'mastodon') of many local channels by hash. */
export function mastodonChannelConfig(db: Db, hashes: string[]): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  if (!hashes.length) return out;
  const rows = allWide<{ hash: string; k: string; v: string }>(
    db,
    "SELECT c.channel_hash AS hash, p.k, p.v FROM pconfig p JOIN channel c ON c.channel_id = p.uid WHERE p.cat = 'mastodon' AND c.channel_hash IN (SELECT value FROM json_each(@hashes))",
    { hashes: JSON.stringify(hashes) },
  );
  for (const r of rows) {
    const m = out.get(r.hash) ?? {};
    m[r.k] = r.v;
    out.set(r.hash, m);
  }
  return out;
}

/** The item ids among these that the channel pinned. */
export function pinnedItemIds(db: Db, uid: number): number[] {
  return stmt<[number], { iid: number }>(db, "SELECT iconfig.iid FROM iconfig JOIN item ON item.id = iconfig.iid WHERE iconfig.cat = 'mastodon' AND iconfig.k = 'pinned' AND iconfig.v = '1' AND item.uid = ? AND item.item_deleted = 0 ORDER BY iconfig.iid DESC")
    .all(uid)
    .map((r) => r.iid);
}

export function deleteItemConfig(db: Db, iid: number, cat: string, k: string): void {
  stmt(db, 'DELETE FROM iconfig WHERE iid = ? AND cat = ? AND k = ?').run(iid, cat, k);
}

export interface MediaMetaRow {
  photo_id: number;
  focus_x: number;
  focus_y: number;
  blurhash: string;
}

export function setMediaMeta(db: Db, m: MediaMetaRow): void {
  stmt(db, 'INSERT INTO media_meta (photo_id, focus_x, focus_y, blurhash) VALUES (@photo_id, @focus_x, @focus_y, @blurhash) ON CONFLICT (photo_id) DO UPDATE SET focus_x = @focus_x, focus_y = @focus_y, blurhash = @blurhash').run(m);
}

export function mediaMetaOf(db: Db, ids: number[]): Map<number, MediaMetaRow> {
  if (!ids.length) return new Map();
  return new Map(allWide<MediaMetaRow>(db, 'SELECT * FROM media_meta WHERE photo_id IN (SELECT value FROM json_each(@ids))', { ids: JSON.stringify(ids) }).map((r) => [r.photo_id, r]));
}

/** The scale 0 rows of photos and the sizes of their preview scale, by id. */
export function photosForMedia(db: Db, ids: number[]): Map<number, { id: number; uid: number; resource_id: string; mimetype: string; width: number; height: number; filesize: number; description: string; small_w: number | null; small_h: number | null }> {
  if (!ids.length) return new Map();
  const rows = allWide<{ id: number; uid: number; resource_id: string; mimetype: string; width: number; height: number; filesize: number; description: string; small_w: number | null; small_h: number | null }>(
    db,
    `SELECT p.id, p.uid, p.resource_id, p.mimetype, p.width, p.height, p.filesize, p.description,
       (SELECT s.width FROM photo s WHERE s.resource_id = p.resource_id AND s.imgscale = 2) AS small_w,
       (SELECT s.height FROM photo s WHERE s.resource_id = p.resource_id AND s.imgscale = 2) AS small_h
     FROM photo p WHERE p.imgscale = 0 AND p.id IN (SELECT value FROM json_each(@ids))`,
    { ids: JSON.stringify(ids) },
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** Scale 0 photo ids of these resources (attach hashes). */
export function photoIdsOfResources(db: Db, resourceIds: string[]): Map<string, number> {
  if (!resourceIds.length) return new Map();
  return new Map(
    allWide<{ resource_id: string; id: number }>(db, 'SELECT resource_id, id FROM photo WHERE imgscale = 0 AND resource_id IN (SELECT value FROM json_each(@r))', { r: JSON.stringify(resourceIds) }).map((r) => [r.resource_id, r.id]),
  );
}

export function setPhotoDescription(db: Db, resourceId: string, description: string): void {
  stmt(db, 'UPDATE photo SET description = ? WHERE resource_id = ?').run(description, resourceId);
}

export interface StatusEditRow {
  id: number;
  iid: number;
  created: string;
  html: string;
  summary: string;
  sensitive: number;
  attach: string;
}

export function insertStatusEdit(db: Db, e: Omit<StatusEditRow, 'id'>): void {
  stmt(db, 'INSERT INTO status_edit (iid, created, html, summary, sensitive, attach) VALUES (@iid, @created, @html, @summary, @sensitive, @attach)').run(e);
}

export function statusEdits(db: Db, iid: number): StatusEditRow[] {
  return stmt<[number], StatusEditRow>(db, 'SELECT * FROM status_edit WHERE iid = ? ORDER BY id').all(iid);
}

/** The post a channel made with this Idempotency-Key within the last hour. */
export function itemOfIdempotencyKey(db: Db, channelId: number, key: string, since: string): number | undefined {
  return stmt<[number, string, string], { iid: number }>(db, 'SELECT iid FROM status_idempotency WHERE channel_id = ? AND idem_key = ? AND created > ?').get(channelId, key, since)?.iid;
}

export function rememberIdempotencyKey(db: Db, channelId: number, key: string, iid: number, now: string): void {
  stmt(db, 'INSERT INTO status_idempotency (channel_id, idem_key, iid, created) VALUES (?, ?, ?, ?) ON CONFLICT (channel_id, idem_key) DO UPDATE SET iid = excluded.iid, created = excluded.created').run(channelId, key, iid, now);
}

/** Who shared an item (authors of its live shares). */
export function sharersOf(db: Db, id: number): string[] {
  return stmt<[string], { author_xchan: string }>(
    db,
    "SELECT i.author_xchan FROM iconfig c JOIN item i ON i.id = c.iid WHERE c.cat = 'compat' AND c.k = 'share_of' AND c.v = ? AND i.item_deleted = 0 ORDER BY i.id DESC",
  ).all(String(id)).map((r) => r.author_xchan);
}

export interface NotificationPage {
  limit: number;
  maxId?: number;
  sinceId?: number;
  minId?: number;
  ntypes: number[];
}

/**
 * A page of the channel's notifications of these types, newest first; max_id and since_id are
 * exclusive bounds, and min_id asks for the notifications just above it (read upwards from it).
 */
export function notificationPage(db: Db, uid: number, p: NotificationPage): NotifyRow[] {
  const params = {
    uid,
    types: JSON.stringify(p.ntypes),
    max: p.maxId ?? Number.MAX_SAFE_INTEGER,
    since: Math.max(p.sinceId ?? 0, p.minId ?? 0),
    limit: p.limit,
  };
  const upwards = p.minId !== undefined;
  const rows = stmt<typeof params, NotifyRow>(
    db,
    `SELECT * FROM notify WHERE uid = @uid AND id < @max AND id > @since AND ntype IN (SELECT value FROM json_each(@types))
     ORDER BY id ${upwards ? 'ASC' : 'DESC'} LIMIT @limit + 0`,
  ).all(params);
  return upwards ? rows.reverse() : rows;
}

export function getNotificationRow(db: Db, uid: number, id: number): NotifyRow | undefined {
  return stmt<[number, number], NotifyRow>(db, 'SELECT * FROM notify WHERE uid = ? AND id = ?').get(uid, id);
}

export function deleteNotification(db: Db, uid: number, id: number): boolean {
  return stmt(db, 'DELETE FROM notify WHERE uid = ? AND id = ?').run(uid, id).changes > 0;
}

export function deleteAllNotifications(db: Db, uid: number): number {
  return stmt(db, 'DELETE FROM notify WHERE uid = ?').run(uid).changes;
}

/** The item whose message id an activity answers, in the activity's channel. */
export function itemByUidMid(db: Db, uid: number, mid: string): ItemRow | undefined {
  return stmt<[number, string], ItemRow>(db, 'SELECT * FROM item WHERE uid = ? AND mid = ? LIMIT 1').get(uid, mid);
}

/** Markers (where the owner stopped reading) per timeline. */
export function getMarkers(db: Db, uid: number): { timeline: string; last_read_id: string; version: number; updated: string }[] {
  return stmt<[number], { k: string; v: string }>(db, "SELECT k, v FROM pconfig WHERE uid = ? AND cat = 'mastodon_marker'").all(uid).map((r) => {
    const v = JSON.parse(r.v) as { last_read_id: string; version: number; updated: string };
    return { timeline: r.k, ...v };
  });
}

/** Hashtags used on the hub that start with these letters (ASCII letters in any case), most used first. */
export function hashtagsLike(db: Db, prefix: string, limit: number, offset: number): string[] {
  const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
  // The range reads only the tags starting so (no UTF-8 text continues with byte FF); LIKE decides.
  return stmt<{ prefix: string; pattern: string; limit: number; offset: number }, { term: string }>(
    db,
    `SELECT term FROM hashtag_use WHERE tag >= lower(@prefix) AND tag < lower(@prefix) || CAST(x'ff' AS TEXT) AND tag LIKE @pattern ESCAPE '\\'
       AND n > 0 ORDER BY n DESC, term LIMIT @limit + 0 OFFSET @offset`,
  ).all({ prefix, pattern: `${escaped}%`, limit, offset }).map((r) => r.term);
}
