import type { Db } from '../db/open.js';
import type { HubEvents, Logger } from '../hub-context.js';
import { getConfig, setConfig } from '../store/config.js';
import { runBackup, type BackupProgress, type BackupResult } from './backup.js';
import { BackupError } from './errors.js';
import { openTarget, passphraseOf, readBackupSettings, saveBackupSettings, targetProblem } from './settings.js';

/** How the last backup went, as the settings page and the desktop notification show it. */
export interface LastBackup {
  ok: boolean;
  /** When it ended (ISO 8601). */
  at: string;
  target: string;
  id?: string;
  bytes?: number;
  files?: number;
  copiedFiles?: number;
  copiedBytes?: number;
  seconds?: number;
  error?: string;
}

export interface BackupState {
  running: boolean;
  progress?: BackupProgress;
  last?: LastBackup;
  /** When the schedule runs the next backup (ISO 8601); absent when none is scheduled. */
  next?: string;
}

/** After a failed scheduled backup, the next try comes this soon (or at the usual time, if sooner). */
const RETRY_AFTER_FAILURE_S = 3600;
/** The first scheduled look after the hub starts: not in the middle of its start. */
const FIRST_LOOK_S = 60;

const LAST = { cat: 'backup', k: 'last' } as const;

/** Keeps how a backup went, whoever ran it (the hub, the command). */
export function recordLastBackup(db: Db, outcome: LastBackup): void {
  setConfig(db, LAST.cat, LAST.k, JSON.stringify(outcome));
}

export function lastBackup(db: Db): LastBackup | undefined {
  const text = getConfig(db, LAST.cat, LAST.k);
  if (!text) return undefined;
  try {
    return JSON.parse(text) as LastBackup;
  } catch {
    return undefined;
  }
}

/**
 * The hub's backups: one at a time, when the owner asks (Settings → Backups: "Back up now") and on
 * the schedule that the desktop app and `hearth serve` start. Each outcome is kept (shown on the
 * settings page) and announced as the hub event 'backup' (LastBackup), which the desktop app shows
 * as a notification when a backup failed.
 */
export class BackupService {
  private running?: Promise<LastBackup>;
  private progress?: BackupProgress;
  private timer?: NodeJS.Timeout;
  private nextAt?: number;
  private readonly stop = new AbortController();

  constructor(private readonly deps: { db: Db; dataDir: string; events: HubEvents; log: Logger; env?: NodeJS.ProcessEnv }) {}

  last(): LastBackup | undefined {
    return lastBackup(this.deps.db);
  }

  state(): BackupState {
    return { running: Boolean(this.running), progress: this.progress, last: this.last(), next: this.nextAt ? new Date(this.nextAt).toISOString() : undefined };
  }

  /** Starts a backup with the current settings; resolves with its outcome (never rejects). */
  runNow(): Promise<LastBackup> {
    this.running ??= this.backUp().finally(() => {
      this.running = undefined;
      this.progress = undefined;
      this.plan();
    });
    return this.running;
  }

  private async backUp(): Promise<LastBackup> {
    const settings = readBackupSettings(this.deps.db);
    const at = () => new Date().toISOString();
    let outcome: LastBackup;
    try {
      if (!settings.target) throw new BackupError('no backup target is set: choose a folder or an S3 bucket');
      const problem = targetProblem(settings.target, this.deps.dataDir);
      if (problem) throw new BackupError(problem);
      const target = await openTarget(settings.target, settings.s3);
      let result: BackupResult;
      try {
        result = await runBackup({
          dataDir: this.deps.dataDir,
          target,
          passphrase: passphraseOf(settings, this.deps.env),
          keep: settings.keep,
          signal: this.stop.signal,
          onProgress: (p) => (this.progress = p),
        });
      } finally {
        target.close();
      }
      outcome = { ok: true, at: at(), target: settings.target, id: result.id, bytes: result.bytes, files: result.files, copiedFiles: result.copiedFiles, copiedBytes: result.copiedBytes, seconds: result.seconds };
      this.deps.log.info(`backup ${result.id} to ${settings.target}: ${result.files} files, ${result.copiedFiles} copied, ${result.seconds.toFixed(1)} s`);
    } catch (err) {
      const message = err instanceof BackupError ? err.message : `${(err as Error).message ?? err}`;
      outcome = { ok: false, at: at(), target: settings.target, error: message };
      if (!this.stop.signal.aborted) this.deps.log.error(`backup to ${settings.target || '(no target)'} failed: ${message}`);
    }
    // Interrupted by the hub closing: nothing to tell; the next start's schedule tries again.
    if (this.stop.signal.aborted) return outcome;
    recordLastBackup(this.deps.db, outcome);
    this.deps.events.emit('backup', outcome);
    return outcome;
  }

  /**
   * Runs backups on the settings' schedule from now on. `override` (hearth serve --backup-to,
   * --backup-every) is saved into the settings first, so that the settings page shows it.
   */
  startSchedule(override: { target?: string; everySeconds?: number } = {}): void {
    if (override.target !== undefined || override.everySeconds !== undefined) saveBackupSettings(this.deps.db, override);
    this.scheduled = true;
    this.plan(Math.min(FIRST_LOOK_S, readBackupSettings(this.deps.db).everySeconds || FIRST_LOOK_S));
  }

  private scheduled = false;

  /** Sets the timer for the next scheduled backup (after a run, a change of settings, the start). */
  plan(atLeastSeconds = 0): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.nextAt = undefined;
    if (!this.scheduled || this.stop.signal.aborted) return;
    const s = readBackupSettings(this.deps.db);
    if (!s.target || !s.everySeconds) return;
    const last = this.last();
    const lastAt = last ? Date.parse(last.at) : 0;
    const wait = last && last.target === s.target && !last.ok ? Math.min(s.everySeconds, RETRY_AFTER_FAILURE_S) : s.everySeconds;
    const due = Math.max(lastAt + wait * 1000, Date.now() + atLeastSeconds * 1000);
    this.nextAt = due;
    // Timers take at most 2^31-1 ms; a longer wait looks again then.
    this.timer = setTimeout(() => (Date.now() >= due - 1000 ? void this.runNow() : this.plan()), Math.min(Math.max(0, due - Date.now()), 2 ** 31 - 1));
    this.timer.unref();
  }

  /** Stops the schedule, interrupts a running backup between two files, and waits for it. */
  async close(): Promise<void> {
    this.stop.abort(new BackupError('the hub is closing'));
    clearTimeout(this.timer);
    await this.running;
  }
}
