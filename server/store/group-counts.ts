import { stmt, type Db } from '../db/open.js';

/** Member counts of the channel's groups, by group id. */
export function groupMemberCounts(db: Db, uid: number): Map<number, number> {
  const rows = stmt<[number], { gid: number; n: number }>(
    db,
    'SELECT g.id AS gid, count(m.id) AS n FROM pgrp g LEFT JOIN pgrp_member m ON m.gid = g.id WHERE g.uid = ? AND g.deleted = 0 GROUP BY g.id',
  ).all(uid);
  return new Map(rows.map((r) => [r.gid, r.n]));
}
