import { get, postJson } from './http.ts';

export interface LastBackup {
  ok: boolean;
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

/** Settings → Backups as the hub reports it: never the passphrase or the S3 secret, only whether they are set. */
export interface BackupSettings {
  target: string;
  every_seconds: number;
  keep_daily: number;
  keep_weekly: number;
  passphrase_set: boolean;
  passphrase_from_environment: boolean;
  s3_endpoint: string;
  s3_region: string;
  s3_access_key_id: string;
  s3_secret_set: boolean;
  running: boolean;
  progress: { phase: string; files: { done: number; total: number }; bytes: { done: number; total: number } } | null;
  last: LastBackup | null;
  next: string | null;
}

export interface BackupSettingsChange {
  target: string;
  every_seconds: string;
  keep_daily: string;
  keep_weekly: string;
  passphrase?: string;
  s3_endpoint?: string;
  s3_region?: string;
  s3_access_key_id?: string;
  s3_secret_access_key?: string;
  /** The account's password: needed to change where backups go or their passphrase. */
  password?: string;
}

export const backupSettings = () => get<BackupSettings>('/settings/backups/state');
export const saveBackupSettings = (change: BackupSettingsChange) => postJson<BackupSettings>('/settings/backups/', change);
export const backUpNow = () => postJson<BackupSettings>('/settings/backups/run', {});
