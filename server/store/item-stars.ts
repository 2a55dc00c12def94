import { stmt, type Db } from '../db/open.js';
import { nowDb } from '../util/time.js';

/** Stars a channel put on items of other channels' threads (own items use item_starred). */
export function setForeignStar(db: Db, uid: number, iid: number, on: boolean): void {
  if (on) stmt(db, 'INSERT OR IGNORE INTO item_star (uid, iid, created) VALUES (?, ?, ?)').run(uid, iid, nowDb());
  else stmt(db, 'DELETE FROM item_star WHERE uid = ? AND iid = ?').run(uid, iid);
}

/**
 * Stars that channels put on these items through item_star (a channel's stars on its own items are
 * the items' item_starred): how many each item has, and whether channel `uid` is among them.
 * Items without such stars are left out.
 */
export function foreignStars(db: Db, ids: number[], uid: number): Map<number, { count: number; mine: boolean }> {
  const out = new Map<number, { count: number; mine: boolean }>();
  if (!ids.length) return out;
  const rows = stmt<[number, string], { iid: number; n: number; mine: number }>(
    db,
    'SELECT iid, count(*) AS n, max(uid = ?) AS mine FROM item_star WHERE iid IN (SELECT value FROM json_each(?)) GROUP BY iid',
  ).all(uid, JSON.stringify(ids));
  for (const r of rows) out.set(r.iid, { count: r.n, mine: r.mine === 1 });
  return out;
}

/** How many items the channel starred. */
export function countStarred(db: Db, uid: number): number {
  return stmt<[number, number], { n: number }>(
    db,
    `SELECT (SELECT count(*) FROM item WHERE uid = ? AND item_starred = 1 AND item_deleted = 0)
          + (SELECT count(*) FROM item_star s JOIN item i ON i.id = s.iid WHERE s.uid = ? AND i.item_deleted = 0) AS n`,
  ).get(uid, uid)!.n;
}
