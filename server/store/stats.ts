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
