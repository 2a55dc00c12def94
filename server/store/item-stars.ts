import { stmt, type Db } from '../db/open.js';
import { nowDb } from '../util/time.js';

/** Stars a channel put on items of other channels' threads (own items use item_starred). */
export function setForeignStar(db: Db, uid: number, iid: number, on: boolean): void {
  if (on) stmt(db, 'INSERT OR IGNORE INTO item_star (uid, iid, created) VALUES (?, ?, ?)').run(uid, iid, nowDb());
  else stmt(db, 'DELETE FROM item_star WHERE uid = ? AND iid = ?').run(uid, iid);
}

/** Which of these items the channel starred, whichever way the star is kept. */
export function starredAmong(db: Db, uid: number, ids: number[]): Set<number> {
  if (!ids.length) return new Set();
  const rows = stmt<[number, string, number, string], { id: number }>(
    db,
    `SELECT id FROM item WHERE uid = ? AND item_starred = 1 AND id IN (SELECT value FROM json_each(?))
     UNION SELECT iid AS id FROM item_star WHERE uid = ? AND iid IN (SELECT value FROM json_each(?))`,
  ).all(uid, JSON.stringify(ids), uid, JSON.stringify(ids));
  return new Set(rows.map((r) => r.id));
}

/** How many items the channel starred. */
export function countStarred(db: Db, uid: number): number {
  return stmt<[number, number], { n: number }>(
    db,
    `SELECT (SELECT count(*) FROM item WHERE uid = ? AND item_starred = 1 AND item_deleted = 0)
          + (SELECT count(*) FROM item_star s JOIN item i ON i.id = s.iid WHERE s.uid = ? AND i.item_deleted = 0) AS n`,
  ).get(uid, uid)!.n;
}
