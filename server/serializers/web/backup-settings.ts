import type { BackupState } from '../../backup/service.js';
import type { BackupSettings } from '../../backup/settings.js';

/**
 * Settings → Backups as the owner's UI reads it. Secrets are never in it: for the passphrase and
 * the S3 secret, only whether one is set.
 */
export interface BackupSettingsView {
  target: string;
  every_seconds: number;
  keep_daily: number;
  keep_weekly: number;
  passphrase_set: boolean;
  /** The passphrase comes from HEARTH_BACKUP_PASSPHRASE (the settings have none). */
  passphrase_from_environment: boolean;
  s3_endpoint: string;
  s3_region: string;
  s3_access_key_id: string;
  s3_secret_set: boolean;
  running: boolean;
  progress: BackupState['progress'] | null;
  last: BackupState['last'] | null;
  next: string | null;
}

export function backupSettingsView(s: BackupSettings, state: BackupState, env: NodeJS.ProcessEnv = process.env): BackupSettingsView {
  return {
    target: s.target,
    every_seconds: s.everySeconds,
    keep_daily: s.keep.daily,
    keep_weekly: s.keep.weekly,
    passphrase_set: Boolean(s.passphrase || env.HEARTH_BACKUP_PASSPHRASE),
    passphrase_from_environment: !s.passphrase && Boolean(env.HEARTH_BACKUP_PASSPHRASE),
    s3_endpoint: s.s3.endpoint,
    s3_region: s.s3.region,
    s3_access_key_id: s.s3.accessKeyId,
    s3_secret_set: Boolean(s.s3.secretAccessKey),
    running: state.running,
    progress: state.progress ?? null,
    last: state.last ?? null,
    next: state.next ?? null,
  };
}
