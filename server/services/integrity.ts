import type { Db } from '../db/open.js';
import type { AttachmentStore } from '../files/store.js';
import { foreignKeyViolations, quickCheck, removeRowsWithoutFile, storedFileRefs, type StoredFileRef } from '../store/integrity.js';

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
  const quick = quickCheck(db);
  if (quick !== 'ok') report.repaired.push(`database quick_check reported: ${quick}`);
  const fk = foreignKeyViolations(db);
  if (fk) report.repaired.push(`${fk} foreign key violations found`);

  const onDisk = new Set(await store.listKeys());
  const referenced = new Set<string>();
  const missing: StoredFileRef[] = [];
  for (const ref of storedFileRefs(db)) {
    const key = store.keyOf(ref.content);
    if (key && onDisk.has(key)) referenced.add(key);
    else missing.push(ref);
  }
  for (const key of onDisk) {
    if (!referenced.has(key)) {
      await store.remove(key);
      report.orphanFiles++;
    }
  }
  if (report.orphanFiles) report.repaired.push(`removed ${report.orphanFiles} orphan files`);
  if (missing.length) {
    removeRowsWithoutFile(db, missing);
    report.rowsWithoutFile = missing.length;
    report.repaired.push(`removed ${report.rowsWithoutFile} rows whose file was missing`);
  }
  return report;
}
