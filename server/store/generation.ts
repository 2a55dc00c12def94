import { stmt, type Db } from '../db/open.js';

/**
 * A value that changes whenever the database changes: rows written through this connection
 * (total_changes) or commits by any other connection, such as the CLI (data_version). Results
 * derived from the data can be reused for as long as it stays the same.
 */
export function dataGeneration(db: Db): string {
  // One statement: this runs before every cached answer.
  return stmt<[], string>(db, "SELECT (SELECT data_version FROM pragma_data_version()) || '.' || total_changes()").pluck().get()!;
}
