import { stmt, type Db } from '../db/open.js';

/**
 * A value that changes whenever the database changes: rows written through this connection
 * (total_changes) or commits by any other connection, such as the CLI (data_version). Results
 * derived from the data can be reused for as long as it stays the same.
 */
export function dataGeneration(db: Db): string {
  const r = stmt<[], { c: number; v: number }>(db, 'SELECT total_changes() AS c, (SELECT data_version FROM pragma_data_version) AS v').get()!;
  return `${r.v}.${r.c}`;
}
