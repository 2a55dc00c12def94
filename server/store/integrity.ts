import { stmt, type Db } from '../db/open.js';

/** A row that keeps its bytes in the attachment store. */
export interface StoredFileRef {
  table: 'attach' | 'photo';
  id: number;
  /** Relative store path ('store/ab/cd/<key>'). */
  content: string;
  /** The photo resource the row belongs to: a photo's resource_id, or the hash of a photo's file record. */
  photoResource?: string;
}

/** The content (relative store path) of every attach and photo row whose file lives in the attachment store. */
export function storedFileContents(db: Db): string[] {
  return stmt<[], string>(db, STORED_FILE_CONTENTS_SQL).pluck().all();
}

/** storedFileContents' query, for a worker thread that runs it on a connection of its own (backup/snapshot.ts). */
export const STORED_FILE_CONTENTS_SQL = 'SELECT content FROM attach WHERE is_dir = 0 AND os_storage = 1 UNION ALL SELECT content FROM photo WHERE os_storage = 1';

/** One attach or photo row that keeps its file in the store, as it is now; undefined when it is gone. */
export function storedFileRef(db: Db, table: 'attach' | 'photo', id: number): StoredFileRef | undefined {
  if (table === 'attach') {
    const row = stmt<[number], { content: string; hash: string; is_photo: number }>(db, 'SELECT content, hash, is_photo FROM attach WHERE id = ? AND is_dir = 0 AND os_storage = 1').get(id);
    return row && { table, id, content: row.content, photoResource: row.is_photo ? row.hash : undefined };
  }
  const row = stmt<[number], { content: string; resource_id: string }>(db, 'SELECT content, resource_id FROM photo WHERE id = ? AND os_storage = 1').get(id);
  return row && { table, id, content: row.content, photoResource: row.resource_id };
}

/** The store paths of every row of a photo: its scales and its file record. */
export function photoFileContents(db: Db, resourceId: string): string[] {
  return stmt<[string, string], string>(db, 'SELECT content FROM photo WHERE resource_id = ? AND os_storage = 1 UNION ALL SELECT content FROM attach WHERE hash = ? AND is_photo = 1 AND os_storage = 1')
    .pluck()
    .all(resourceId, resourceId);
}

/**
 * Removes rows whose file is gone, in one transaction. A photo missing any of its files is removed
 * whole (every scale, its file record) and its items hidden, as deleting the photo would, so that
 * no half a photo stays visible; the files left without rows are then orphans.
 */
export function removeRowsWithoutFile(db: Db, refs: StoredFileRef[]): void {
  db.transaction(() => {
    for (const r of refs) {
      if (r.photoResource !== undefined) {
        stmt(db, 'DELETE FROM photo WHERE resource_id = ?').run(r.photoResource);
        stmt(db, 'DELETE FROM attach WHERE hash = ? AND is_photo = 1').run(r.photoResource);
        stmt(db, "UPDATE item SET item_deleted = 1 WHERE resource_type = 'photo' AND resource_id = ?").run(r.photoResource);
      }
      stmt(db, `DELETE FROM ${r.table === 'attach' ? 'attach' : 'photo'} WHERE id = ?`).run(r.id);
    }
  })();
}
