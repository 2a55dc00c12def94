import { stmt, type Db } from '../db/open.js';

/**
 * A value that changes whenever the database changes: rows written through this connection
 * (total_changes) or commits by any other connection, such as the CLI (data_version). Results
 * derived from the data can be reused for as long as it stays the same.
 */
export function dataGeneration(db: Db): string {
  return `${stmt<[], number>(db, 'PRAGMA data_version').pluck().get()}.${stmt<[], number>(db, 'SELECT total_changes()').pluck().get()}`;
}
