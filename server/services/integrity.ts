import type { Db } from '../db/open.js';
import type { AttachmentStore } from '../files/store.js';
import { foreignKeyViolations, quickCheck, removeRowsWithoutFile, storedFileContents, storedFileRefs } from '../store/integrity.js';

export interface IntegrityReport {
  /** Files in the store that no row refers to (left by a crash between write and commit). */
  orphanFiles: number;
  /** Rows whose file is missing (should never happen; repaired by removing the row, or the whole photo). */
  rowsWithoutFile: number;
  repaired: string[];
}

/**
 * Startup check of the database against the attachment store. Removes rows whose file is gone (a
 * photo missing any file is removed whole and its items hidden), then files no row refers to, and
 * checks SQLite's own consistency unless `sqlite` is false (those checks read the whole database).
 *
 * Runs while requests are served: files stored after it began belong to writes in progress and are
 * left alone. It must begin before any write does (the hub starts it before it serves).
 */
export async function checkIntegrity(db: Db, store: AttachmentStore, opts: { sqlite?: boolean } = {}): Promise<IntegrityReport> {
  const report: IntegrityReport = { orphanFiles: 0, rowsWithoutFile: 0, repaired: [] };
  const written = store.watchNewKeys();
  try {
    const onDisk = new Set(await store.listKeys());
    if (opts.sqlite ?? true) {
      const quick = quickCheck(db);
      if (quick !== 'ok') report.repaired.push(`database quick_check reported: ${quick}`);
      const fk = foreignKeyViolations(db);
      if (fk) report.repaired.push(`${fk} foreign key violations found`);
    }

    // Nothing awaits from reading the rows to removing those without a file: no write slips in between.
    const hasFile = (key: string | undefined): key is string => key !== undefined && (onDisk.has(key) || written.keys.has(key));
    let referenced = new Set<string>();
    let anyMissing = false;
    for (const content of storedFileContents(db)) {
      const key = store.keyOf(content);
      if (hasFile(key)) referenced.add(key);
      else anyMissing = true;
    }
    if (anyMissing) {
      const missing = [...storedFileRefs(db)].filter((ref) => !hasFile(store.keyOf(ref.content)));
      removeRowsWithoutFile(db, missing);
      report.rowsWithoutFile = missing.length;
      const photos = new Set(missing.map((r) => r.photoResource).filter(Boolean)).size;
      report.repaired.push(`removed ${missing.length} rows whose file was missing${photos ? ` (${photos} photos removed whole)` : ''}`);
      // Read again after the repair: the other files of a removed photo are orphans now.
      referenced = referencedKeys(db, store);
    }
    for (const key of onDisk) {
      if (!referenced.has(key) && !written.keys.has(key)) {
        await store.remove(key);
        report.orphanFiles++;
      }
    }
    if (report.orphanFiles) report.repaired.push(`removed ${report.orphanFiles} orphan files`);
    return report;
  } finally {
    written.stop();
  }
}

function referencedKeys(db: Db, store: AttachmentStore): Set<string> {
  const keys = new Set<string>();
  for (const content of storedFileContents(db)) {
    const key = store.keyOf(content);
    if (key) keys.add(key);
  }
  return keys;
}
