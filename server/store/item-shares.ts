import { stmt, type Db } from '../db/open.js';

/** iconfig entry that marks an item as a share (statuses/retweet) of another item, by that item's id. */
export const SHARE_ICONFIG = { cat: 'compat', k: 'share_of' } as const;

const json = (values: unknown[]) => JSON.stringify(values);

/**
 * For each of these items: how many live shares it has, and whether channel `uid` shared it (its
 * own live share). Items without shares are left out of both.
 */
export function sharesAmong(db: Db, ids: number[], uid: number): { counts: Map<number, number>; mine: Set<number> } {
  const counts = new Map<number, number>();
  const mine = new Set<number>();
  if (!ids.length) return { counts, mine };
  const rows = stmt<{ ids: string; uid: number; cat: string; k: string }, { v: string; n: number; mine: number }>(
    db,
    // A share is the channel's own when it wrote it (shares from elsewhere are kept by a channel too).
    `SELECT c.v AS v, count(*) AS n, max(i.uid = @uid AND i.author_xchan = (SELECT channel_hash FROM channel WHERE channel_id = @uid)) AS mine FROM iconfig c JOIN item i ON i.id = c.iid
     WHERE c.cat = @cat AND c.k = @k AND c.v IN (SELECT CAST(value AS TEXT) FROM json_each(@ids)) AND i.item_deleted = 0
     GROUP BY c.v`,
  ).all({ ids: json(ids), uid, ...SHARE_ICONFIG });
  for (const r of rows) {
    counts.set(Number(r.v), r.n);
    if (r.mine) mine.add(Number(r.v));
  }
  return { counts, mine };
}

/** Ids of the live shares of an item, newest first. */
export function sharesOf(db: Db, id: number, limit: number): number[] {
  return stmt<{ v: string; limit: number; cat: string; k: string }, { id: number }>(
    db,
    `SELECT i.id FROM iconfig c JOIN item i ON i.id = c.iid WHERE c.cat = @cat AND c.k = @k AND c.v = @v AND i.item_deleted = 0 ORDER BY i.id DESC LIMIT @limit + 0`,
  )
    .all({ v: String(id), limit, ...SHARE_ICONFIG })
    .map((r) => r.id);
}
