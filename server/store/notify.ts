import { stmt, type Db } from '../db/open.js';
import type { NotifyRow } from './rows.js';

export type NewNotification = Omit<NotifyRow, 'id' | 'seen'>;

export function insertNotification(db: Db, n: NewNotification): number {
  return Number(
    stmt(
      db,
      `INSERT INTO notify (hash, xname, url, photo, created, msg, aid, uid, link, iid, parent, seen, ntype, verb, otype, xchan)
       VALUES (@hash, @xname, @url, @photo, @created, @msg, @aid, @uid, @link, @iid, @parent, 0, @ntype, @verb, @otype, @xchan)`,
    ).run(n).lastInsertRowid,
  );
}

export function getNotification(db: Db, uid: number, id: number): NotifyRow | undefined {
  return stmt<[number, number], NotifyRow>(db, 'SELECT * FROM notify WHERE uid = ? AND id = ?').get(uid, id);
}

/** The channel's latest notifications, unseen first, then newest first. */
export function listNotifications(db: Db, uid: number, limit = 50): NotifyRow[] {
  return stmt<[number, number], NotifyRow>(db, 'SELECT * FROM notify WHERE uid = ? ORDER BY seen ASC, created DESC, id DESC LIMIT ?').all(uid, limit);
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
