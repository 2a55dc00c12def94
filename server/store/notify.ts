import { stmt, type Db } from '../db/open.js';
import type { NotifyRow } from './rows.js';

export type NewNotification = Omit<NotifyRow, 'id' | 'seen'>;

/** A notification with its actor's current profile URL and photo (null when the hub no longer knows the actor). */
export type ReadNotification = NotifyRow & { actor_url: string | null; actor_photo: string | null };

const READ = 'SELECT notify.*, x.xchan_url AS actor_url, x.xchan_photo_s AS actor_photo FROM notify LEFT JOIN xchan x ON x.xchan_hash = notify.xchan';

export function insertNotification(db: Db, n: NewNotification): number {
  return Number(
    stmt(
      db,
      `INSERT INTO notify (hash, xname, url, photo, created, msg, aid, uid, link, iid, parent, seen, ntype, verb, otype, xchan)
       VALUES (@hash, @xname, @url, @photo, @created, @msg, @aid, @uid, @link, @iid, @parent, 0, @ntype, @verb, @otype, @xchan)`,
    ).run(n).lastInsertRowid,
  );
}

export function getNotification(db: Db, uid: number, id: number): ReadNotification | undefined {
  return stmt<[number, number], ReadNotification>(db, `${READ} WHERE notify.uid = ? AND notify.id = ?`).get(uid, id);
}

/** The channel's latest notifications, unseen first, then newest first. */
export function listNotifications(db: Db, uid: number, limit = 50): ReadNotification[] {
  return stmt<[number, number], ReadNotification>(db, `${READ} WHERE notify.uid = ? ORDER BY notify.seen ASC, notify.created DESC, notify.id DESC LIMIT ? + 0`).all(uid, limit);
}

/**
 * A page of the channel's notifications, newest first by id: those above `sinceId` (exclusive) and
 * at most `maxId` (inclusive), the microblog API's id bounds.
 */
export function pageNotifications(db: Db, uid: number, p: { count: number; sinceId?: number; maxId?: number }): ReadNotification[] {
  return stmt<{ uid: number; since: number; max: number; count: number }, ReadNotification>(
    db,
    `${READ} WHERE notify.uid = @uid AND notify.id > @since AND notify.id <= @max ORDER BY notify.id DESC LIMIT @count + 0`,
  ).all({ uid, since: p.sinceId ?? -1, max: p.maxId ?? Number.MAX_SAFE_INTEGER, count: p.count });
}

/**
 * The channel's notifications of a follow request by `xchan` (ntype INTRO without a verb), once it
 * was accepted: they tell of a follow from then on, in `msg`. Whether they were seen stays.
 */
export function settleRequestNotifications(db: Db, uid: number, xchan: string, o: { ntype: number; verb: string; msg: string }): number {
  return stmt(db, "UPDATE notify SET msg = ?, verb = ? WHERE uid = ? AND xchan = ? AND ntype = ? AND verb = ''").run(o.msg, o.verb, uid, xchan, o.ntype).changes;
}

export function countUnseenNotifications(db: Db, uid: number): number {
  return stmt<[number], { n: number }>(db, 'SELECT count(*) AS n FROM notify WHERE uid = ? AND seen = 0').get(uid)!.n;
}

export function markNotificationSeen(db: Db, uid: number, id: number): boolean {
  return stmt(db, 'UPDATE notify SET seen = 1 WHERE uid = ? AND id = ?').run(uid, id).changes > 0;
}

export function markAllNotificationsSeen(db: Db, uid: number): number {
  return stmt(db, 'UPDATE notify SET seen = 1 WHERE uid = ? AND seen = 0').run(uid).changes;
}

/** Marks seen every notification of the channel about one thread (its top item id). */
export function markThreadNotificationsSeen(db: Db, uid: number, parent: number): number {
  return stmt(db, 'UPDATE notify SET seen = 1 WHERE uid = ? AND parent = ? AND seen = 0').run(uid, parent).changes;
}
