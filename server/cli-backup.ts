import { setPriority } from 'node:os';
import { join, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { openDatabase } from './db/open.js';
import { runBackup, type BackupProgress } from './backup/backup.js';
import { BackupError } from './backup/errors.js';
import { runRestore } from './backup/restore.js';
import { recordLastBackup } from './backup/service.js';
import { openTarget, passphraseOf, readBackupSettings, targetProblem } from './backup/settings.js';
import type { BackupTarget } from './backup/targets/target.js';
import { isEncrypted } from './backup/vault.js';
import { bar, linePrinter, mb } from './cli-progress.js';
import { PromptCancelled, promptHidden } from './cli-password.js';

function backupLine(p: BackupProgress): string {
  switch (p.phase) {
    case 'database':
      return 'Copying the database…';
    case 'files':
      return `Files  ${bar(p.bytes.total ? p.bytes.done / p.bytes.total : p.files.total ? p.files.done / p.files.total : 1)} ${p.files.done}/${p.files.total} new files, ${mb(p.bytes.done)}/${mb(p.bytes.total)} MB`;
    default:
      return "Writing the database copy's changed chunks and the manifest, removing old backups…";
  }
}

/** A target as given on the command line: a folder path is made absolute. */
function targetSpec(value: string): string {
  return value.startsWith('s3:') ? value : resolve(value);
}

/**
 * hearth backup: backs the data folder up while the hub may be serving, with progress on stderr
 * and one summary line on stdout. Runs at a lower priority, so that the hub and the owner's other
 * programs go first.
 */
export async function backupCommand(opts: { dataDir: string; to?: string }, env: NodeJS.ProcessEnv): Promise<number> {
  if (!existsSync(join(opts.dataDir, 'hearth.db'))) throw new BackupError(`there is no hub in ${opts.dataDir} (no hearth.db)`);
  const db = openDatabase(join(opts.dataDir, 'hearth.db'));
  try {
    const settings = readBackupSettings(db);
    const spec = opts.to ? targetSpec(opts.to) : settings.target;
    if (!spec) throw new BackupError('say where to: --to FOLDER or --to s3://bucket/prefix (or set the target in Settings → Backups)');
    const problem = targetProblem(spec, opts.dataDir);
    if (problem) throw new BackupError(problem);
    try {
      setPriority(10);
    } catch {
      // Not allowed here: the backup runs at the usual priority.
    }
    const target = await openTarget(spec, settings.s3);
    const progress = linePrinter<BackupProgress>(backupLine, (p) => (p.phase === 'files' ? p.bytes : undefined));
    const interrupt = new AbortController();
    const onSigint = () => interrupt.abort(new BackupError('interrupted; the earlier backups are as they were'));
    process.once('SIGINT', onSigint);
    try {
      const r = await runBackup({ dataDir: opts.dataDir, target, passphrase: passphraseOf(settings, env), keep: settings.keep, onProgress: (p) => progress.update(p), signal: interrupt.signal });
      progress.end();
      recordLastBackup(db, { ok: true, at: new Date().toISOString(), target: spec, id: r.id, bytes: r.bytes, files: r.files, copiedFiles: r.copiedFiles, copiedBytes: r.copiedBytes, seconds: r.seconds });
      if (r.removed.length) console.error(`Removed older backups: ${r.removed.join(', ')}`);
      console.log(`backup ${r.id}: ${mb(r.bytes)} MB (the database and ${r.files} files), ${r.copiedFiles} files copied (${mb(r.copiedBytes)} MB), ${mb(r.copiedDatabaseBytes)} of ${mb(r.databaseBytes)} MB of the database copied, ${r.seconds.toFixed(1)} s`);
      return 0;
    } catch (err) {
      progress.end();
      const message = err instanceof BackupError ? err.message : (err as Error).message;
      recordLastBackup(db, { ok: false, at: new Date().toISOString(), target: spec, error: message });
      if (interrupt.signal.aborted) {
        console.error(`hearth: backup ${message}`);
        return 130;
      }
      throw err instanceof BackupError ? err : new BackupError(`the backup failed: ${message}`);
    } finally {
      process.off('SIGINT', onSigint);
      target.close();
    }
  } finally {
    db.close();
  }
}

/** The passphrase for a restore: HEARTH_BACKUP_PASSPHRASE, else typed on the terminal when the backups are encrypted. */
async function restorePassphrase(target: BackupTarget, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (env.HEARTH_BACKUP_PASSPHRASE) return env.HEARTH_BACKUP_PASSPHRASE;
  if (!(await isEncrypted(target)) || !process.stdin.isTTY) return undefined;
  try {
    return await promptHidden('Passphrase of the backups: ', process.stdin, process.stderr);
  } catch (err) {
    if (err instanceof PromptCancelled) throw new BackupError('no passphrase typed: nothing restored');
    throw err;
  }
}

/** hearth restore: a backup into a new data folder, every checksum verified on the way. */
export async function restoreCommand(opts: { from: string; backup?: string; dataDir: string }, env: NodeJS.ProcessEnv): Promise<number> {
  const target = await openTarget(targetSpec(opts.from), {});
  try {
    const passphrase = await restorePassphrase(target, env);
    const progress = linePrinter<{ phase: string; files: { done: number; total: number }; bytes: { done: number; total: number } }>(
      (p) => `Restoring  ${bar(p.bytes.total ? p.bytes.done / p.bytes.total : 0)} ${p.files.done}/${p.files.total} files, ${mb(p.bytes.done)}/${mb(p.bytes.total)} MB`,
      (p) => p.bytes,
    );
    try {
      const r = await runRestore({ target, passphrase, backupId: opts.backup, dataDir: opts.dataDir, onProgress: (p) => progress.update({ phase: 'restore', ...p }) });
      progress.end();
      console.log(`restored backup ${r.id} (made ${r.created}) into ${resolve(opts.dataDir)}: ${mb(r.bytes)} MB (the database and ${r.files} files), every checksum verified, ${r.seconds.toFixed(1)} s`);
      console.error(`Start it with: hearth serve --data ${JSON.stringify(resolve(opts.dataDir))}`);
      return 0;
    } finally {
      progress.end();
    }
  } finally {
    target.close();
  }
}
