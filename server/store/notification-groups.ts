import { stmt, type Db } from '../db/open.js';
import type { NotifyRow } from './rows.js';

export interface NotificationRun {
  ntypes: number[];
  /** Ids strictly between these bounds. */
  above: number;
  below: number;
  order: 'asc' | 'desc';
  limit: number;
}

/** The channel's notifications of these kinds between two ids, oldest or newest first. */
export function notificationRun(db: Db, uid: number, r: NotificationRun): NotifyRow[] {
  const params = { uid, types: JSON.stringify(r.ntypes), above: r.above, below: r.below, limit: r.limit };
  const where = 'uid = @uid AND id > @above AND id < @below AND ntype IN (SELECT value FROM json_each(@types))';
  const sql = r.order === 'asc' ? `SELECT * FROM notify WHERE ${where} ORDER BY id ASC LIMIT @limit + 0` : `SELECT * FROM notify WHERE ${where} ORDER BY id DESC LIMIT @limit + 0`;
  return stmt<typeof params, NotifyRow>(db, sql).all(params);
}

/** The channel's notifications of these kinds created in [from, to), newest first. */
export function notificationsCreatedBetween(db: Db, uid: number, ntypes: number[], from: string, to: string): NotifyRow[] {
  const params = { uid, types: JSON.stringify(ntypes), from, to };
  return stmt<typeof params, NotifyRow>(
    db,
    'SELECT * FROM notify WHERE uid = @uid AND created >= @from AND created < @to AND ntype IN (SELECT value FROM json_each(@types)) ORDER BY id DESC',
  ).all(params);
}

/** Deletes these notifications of the channel; how many went. */
export function deleteNotificationsById(db: Db, uid: number, ids: number[]): number {
  if (!ids.length) return 0;
  return stmt(db, 'DELETE FROM notify WHERE uid = ? AND id IN (SELECT value FROM json_each(?))').run(uid, JSON.stringify(ids)).changes;
}
