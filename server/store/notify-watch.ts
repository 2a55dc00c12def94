import { stmt, type Db } from '../db/open.js';

/** What the desktop app needs to show a notification natively. */
export interface WatchedNotification {
  id: number;
  uid: number;
  xname: string;
  msg: string;
  link: string;
  iid: number;
  parent: number;
  ntype: number;
  otype: string;
  created: string;
}

/** Highest notification id so far (0 when there is none): the watcher starts after it. */
export function latestNotifyId(db: Db): number {
  return stmt<[], { id: number | null }>(db, 'SELECT max(id) AS id FROM notify').get()?.id ?? 0;
}

/** Unseen notifications of every channel with an id above `afterId`, oldest first (a primary-key range scan). */
export function unseenNotificationsAfter(db: Db, afterId: number, limit: number): WatchedNotification[] {
  return stmt<[number, number], WatchedNotification>(
    db,
    'SELECT id, uid, xname, msg, link, iid, parent, ntype, otype, created FROM notify WHERE id > ? AND seen = 0 ORDER BY id LIMIT ? + 0',
  ).all(afterId, limit);
}

/** Unseen notifications across all channels of the install (the tray shows this number). */
export function countAllUnseenNotifications(db: Db): number {
  return stmt<[], { n: number }>(db, 'SELECT count(*) AS n FROM notify WHERE seen = 0').get()?.n ?? 0;
}

/** Inserts a bare unseen notification; for tests and tools that need one without the notification service. */
export function insertPlainNotification(db: Db, n: { uid: number; msg: string; xname?: string; iid?: number; otype?: string; ntype?: number }): number {
  return Number(
    stmt(db, "INSERT INTO notify (uid, msg, xname, iid, otype, ntype, created) VALUES (?, ?, ?, ?, ?, ?, strftime('%Y-%m-%d %H:%M:%S', 'now'))").run(
      n.uid,
      n.msg,
      n.xname ?? '',
      n.iid ?? 0,
      n.otype ?? 'item',
      n.ntype ?? 0,
    ).lastInsertRowid,
  );
}
