import { isAbsolute, relative, resolve } from 'node:path';
import type { Db } from '../db/open.js';
import { getConfig, setConfig } from '../store/config.js';
import { BackupError } from './errors.js';
import { DEFAULT_RETENTION, type RetentionPolicy } from './retention.js';
import { parseS3Url, type S3Access } from './targets/s3-address.js';
import { FolderTarget } from './targets/folder.js';
import type { BackupTarget } from './targets/target.js';

const CAT = 'backup';

/** The owner's backup settings (Settings → Backups). The passphrase and the S3 secret are never shown back. */
export interface BackupSettings {
  /** A folder (absolute path) or s3://bucket/prefix; '' when backups are off. */
  target: string;
  /** Seconds between scheduled backups; 0: only when asked. */
  everySeconds: number;
  keep: RetentionPolicy;
  passphrase: string;
  s3: Required<S3Access>;
}

export const DEFAULT_EVERY_SECONDS = 24 * 3600;

function int(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isInteger(n) && n >= 0 ? n : fallback;
}

export function readBackupSettings(db: Db): BackupSettings {
  const get = (k: string) => getConfig(db, CAT, k);
  return {
    target: get('target') ?? '',
    everySeconds: int(get('every_seconds'), DEFAULT_EVERY_SECONDS),
    keep: { daily: int(get('keep_daily'), DEFAULT_RETENTION.daily), weekly: int(get('keep_weekly'), DEFAULT_RETENTION.weekly) },
    passphrase: get('passphrase') ?? '',
    s3: { endpoint: get('s3_endpoint') ?? '', region: get('s3_region') ?? '', accessKeyId: get('s3_access_key_id') ?? '', secretAccessKey: get('s3_secret_access_key') ?? '' },
  };
}

/** Saves the settings given (all in one transaction); absent ones keep their value. */
export function saveBackupSettings(db: Db, change: Partial<Omit<BackupSettings, 's3' | 'keep'>> & { keep?: Partial<RetentionPolicy>; s3?: Partial<S3Access> }): void {
  const set = (k: string, v: string | number | undefined) => {
    if (v !== undefined) setConfig(db, CAT, k, String(v));
  };
  db.transaction(() => {
    set('target', change.target);
    set('every_seconds', change.everySeconds);
    set('keep_daily', change.keep?.daily);
    set('keep_weekly', change.keep?.weekly);
    set('passphrase', change.passphrase);
    set('s3_endpoint', change.s3?.endpoint);
    set('s3_region', change.s3?.region);
    set('s3_access_key_id', change.s3?.accessKeyId);
    set('s3_secret_access_key', change.s3?.secretAccessKey);
  })();
}

/** What went wrong with a target as the owner wrote it, or undefined when it is usable. */
export function targetProblem(target: string, dataDir: string): string | undefined {
  if (target.startsWith('s3:')) return parseS3Url(target) ? undefined : 'an S3 target is written s3://bucket or s3://bucket/prefix';
  if (!isAbsolute(target)) return 'the backup folder must be a full path (for example /media/backup/hearth or D:\\Hearth backups)';
  const inside = relative(resolve(dataDir), resolve(target));
  if (inside === '' || (!inside.startsWith('..') && !isAbsolute(inside))) return 'the backup folder cannot be inside the hub\'s own data folder: a disk that dies takes both';
  return undefined;
}

/** The passphrase: the settings', else HEARTH_BACKUP_PASSPHRASE's. */
export function passphraseOf(settings: BackupSettings, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return settings.passphrase || env.HEARTH_BACKUP_PASSPHRASE || undefined;
}

/** Opens a target named as in the settings (a folder path or s3://…). The S3 client loads only for an S3 target. */
export async function openTarget(target: string, s3: S3Access): Promise<BackupTarget> {
  if (target.startsWith('s3:')) return new (await import('./targets/s3.js')).S3Target(target, s3);
  if (!target) throw new BackupError('no backup target is set: choose a folder or an S3 bucket');
  return new FolderTarget(target);
}

const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86400, w: 7 * 86400 } as const;

/** Parses a period such as 30m, 6h, 1d, 1w, daily, hourly, weekly or off; in seconds (0 for off). */
export function parseEvery(value: string): number | undefined {
  const v = value.trim().toLowerCase();
  const named: Record<string, number> = { off: 0, never: 0, hourly: 3600, daily: 86400, weekly: 7 * 86400 };
  if (v in named) return named[v];
  const m = /^(\d{1,6})\s*(s|m|h|d|w)$/.exec(v);
  if (!m) return undefined;
  const seconds = Number(m[1]) * UNIT_SECONDS[m[2] as keyof typeof UNIT_SECONDS];
  return seconds > 0 && seconds <= 366 * 86400 ? seconds : undefined;
}
