import { stmt, type Db } from '../db/open.js';

/** A row that keeps its bytes in the attachment store. */
export interface StoredFileRef {
  table: 'attach' | 'photo';
  id: number;
  /** Relative store path ('store/ab/cd/<key>'). */
  content: string;
  /** The photo's resource id (photos only). */
  resourceId?: string;
}

/** SQLite's own consistency: 'ok' or the first problem quick_check found. */
export function quickCheck(db: Db): string {
  return String(db.pragma('quick_check', { simple: true }));
}

export function foreignKeyViolations(db: Db): number {
  return (db.pragma('foreign_key_check') as unknown[]).length;
}

/** Every attach and photo row whose content lives in the attachment store. */
export function* storedFileRefs(db: Db): Generator<StoredFileRef> {
  for (const row of stmt<[], { id: number; content: string }>(db, 'SELECT id, content FROM attach WHERE is_dir = 0 AND os_storage = 1').iterate()) {
    yield { table: 'attach', id: row.id, content: row.content };
  }
  for (const row of stmt<[], { id: number; resource_id: string; content: string }>(db, 'SELECT id, resource_id, content FROM photo WHERE os_storage = 1').iterate()) {
    yield { table: 'photo', id: row.id, content: row.content, resourceId: row.resource_id };
  }
}

/**
 * Removes rows whose file is gone, in one transaction. A photo without its bytes also hides the
 * photo's items, as deleting the photo would.
 */
export function removeRowsWithoutFile(db: Db, refs: StoredFileRef[]): void {
  db.transaction(() => {
    for (const r of refs) {
      if (r.table === 'attach') {
        stmt(db, 'DELETE FROM attach WHERE id = ?').run(r.id);
      } else {
        stmt(db, 'DELETE FROM photo WHERE id = ?').run(r.id);
        stmt(db, "UPDATE item SET item_deleted = 1 WHERE resource_type = 'photo' AND resource_id = ?").run(r.resourceId ?? '');
      }
    }
  })();
}
