import { stmt, type Db } from '../db/open.js';

/**
 * A value that changes whenever the database changes: rows written through this connection
 * (total_changes) or commits by any other connection, such as the CLI (data_version). Results
 * derived from the data can be reused for as long as it stays the same.
 */
export function dataGeneration(db: Db): string {
  // This runs before every cached answer. The PRAGMA is prepared once: read through the
  // pragma_data_version() table function instead, SQLite prepared it anew on every call.
  const version = stmt<[], number>(db, 'PRAGMA data_version').pluck().get()!;
  const changes = stmt<[], number>(db, 'SELECT total_changes()').pluck().get()!;
  return `${version}.${changes}`;
}
