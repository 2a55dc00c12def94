import type { Db } from '../db/open.js';
import type { AttachmentStore } from '../files/store.js';

export interface IntegrityReport {
  /** Files in the store that no row refers to (left by a crash between write and commit). */
  orphanFiles: number;
  /** Rows whose file is missing (should never happen; repaired by removing the row). */
  rowsWithoutFile: number;
  repaired: string[];
}

/**
 * Startup check of the database against the attachment store. Removes files no row refers to and
 * rows whose file is gone (a photo row without its bytes also hides the photo's items), and
 * checks SQLite's own consistency.
 */
export async function checkIntegrity(db: Db, store: AttachmentStore): Promise<IntegrityReport> {
  const report: IntegrityReport = { orphanFiles: 0, rowsWithoutFile: 0, repaired: [] };
  const quick = db.pragma('quick_check', { simple: true });
  if (quick !== 'ok') report.repaired.push(`database quick_check reported: ${String(quick)}`);
  const fk = db.pragma('foreign_key_check') as unknown[];
  if (fk.length) report.repaired.push(`${fk.length} foreign key violations found`);

  const onDisk = new Set(await store.listKeys());
  const referenced = new Set<string>();
  const missingAttach: number[] = [];
  const missingPhoto: { id: number; resource_id: string }[] = [];
  for (const row of db.prepare("SELECT id, content FROM attach WHERE is_dir = 0 AND os_storage = 1").iterate() as Iterable<{ id: number; content: string }>) {
    const key = store.keyOf(row.content);
    if (key && onDisk.has(key)) referenced.add(key);
    else missingAttach.push(row.id);
  }
  for (const row of db.prepare('SELECT id, resource_id, content FROM photo WHERE os_storage = 1').iterate() as Iterable<{ id: number; resource_id: string; content: string }>) {
    const key = store.keyOf(row.content);
    if (key && onDisk.has(key)) referenced.add(key);
    else missingPhoto.push(row);
  }
  for (const key of onDisk) {
    if (!referenced.has(key)) {
      await store.remove(key);
      report.orphanFiles++;
    }
  }
  if (report.orphanFiles) report.repaired.push(`removed ${report.orphanFiles} orphan files`);
  if (missingAttach.length || missingPhoto.length) {
    db.transaction(() => {
      const delAttach = db.prepare('DELETE FROM attach WHERE id = ?');
      for (const id of missingAttach) delAttach.run(id);
      const delPhoto = db.prepare('DELETE FROM photo WHERE id = ?');
      const hideItems = db.prepare("UPDATE item SET item_deleted = 1 WHERE resource_type = 'photo' AND resource_id = ?");
      for (const p of missingPhoto) {
        delPhoto.run(p.id);
        hideItems.run(p.resource_id);
      }
    })();
    report.rowsWithoutFile = missingAttach.length + missingPhoto.length;
    report.repaired.push(`removed ${report.rowsWithoutFile} rows whose file was missing`);
  }
  return report;
}
