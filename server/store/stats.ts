import { stmt, type Db } from '../db/open.js';

/** Names of the database's own tables (SQLite's internal ones excluded). */
export function tableNames(db: Db): string[] {
  return stmt<[], { name: string }>(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all()
    .map((r) => r.name);
}

/** Row count of every table: a cheap fingerprint of what a request changed. */
export function rowCounts(db: Db): Record<string, number> {
  const out: Record<string, number> = {};
  // Table names come from sqlite_master, never from input, so quoting them is enough.
  for (const name of tableNames(db)) out[name] = (db.prepare(`SELECT count(*) AS n FROM "${name.replace(/"/g, '""')}"`).get() as { n: number }).n;
  return out;
}

/** Rows inserted, updated or deleted through this connection since it opened (SQLite's total_changes()). */
export function totalChanges(db: Db): number {
  return (stmt<[], { n: number }>(db, 'SELECT total_changes() AS n').get() as { n: number }).n;
}

/** Channels of the hub and the public posts written on it (the instance's published numbers). */
export function localCounts(db: Db): { channels: number; posts: number } {
  const channels = (stmt<[], { n: number }>(db, 'SELECT count(*) AS n FROM channel WHERE channel_removed = 0').get()!).n;
  const posts = (
    stmt<[], { n: number }>(db, `SELECT count(*) AS n FROM item WHERE item_origin = 1 AND item_deleted = 0 AND item_type = 0 AND item_private = 0
      AND allow_cid = '' AND allow_gid = '' AND deny_cid = '' AND deny_gid = '' AND item_thread_top = 1`).get()!
  ).n;
  return { channels, posts };
}
