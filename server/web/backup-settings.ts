import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Hub } from '../hub-context.js';
import { HttpError } from '../http/errors.js';
import { assertSameOrigin } from '../http/web.js';
import { verifyPassword } from '../auth/passwords.js';
import { parseS3Url } from '../backup/targets/s3-address.js';
import { readBackupSettings, saveBackupSettings, targetProblem, type BackupSettings } from '../backup/settings.js';
import { backupSettingsView } from '../serializers/web/backup-settings.js';
import { getAccount } from '../store/accounts.js';
import type { SessionRow } from '../store/sessions.js';
import { currentSession } from './auth-pages.js';

export const BACKUP_SETTINGS_PATH = '/settings/backups/';

/** A field of the posted JSON or form, as text; undefined when absent. */
function field(ctx: Context, name: string): string | undefined {
  const body = (ctx.request as { body?: unknown }).body;
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

function count(ctx: Context, name: string, max: number): number | undefined {
  const v = field(ctx, name);
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > max) throw new HttpError(400, `${name} must be a whole number from 0 to ${max}`);
  return n;
}

/** The owner's browser session; 401 without one (app tokens and passwords do not reach these settings). */
function sessionOf(ctx: Context): SessionRow {
  const session = currentSession(ctx);
  if (!session) throw new HttpError(401, 'Log in first');
  return session;
}

/** A change from the owner's UI: same origin, and the session's CSRF token in X-CSRF-Token. */
function changingSession(ctx: Context): SessionRow {
  assertSameOrigin(ctx);
  const session = sessionOf(ctx);
  if (ctx.get('x-csrf-token') !== session.csrf) throw new HttpError(403, 'The page has expired; reload it and try again');
  return session;
}

function answer(ctx: Context, hub: Hub, status = 200): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = backupSettingsView(readBackupSettings(hub.db), hub.backups.state());
}

/**
 * JSON for Settings → Backups: where backups go, how often, how many are kept, the passphrase, and
 * how the last one went; "Back up now". Changing where backups go (the target, the S3 service or
 * its keys) takes the account's password too: a stolen session must not send the whole hub to
 * someone else's bucket.
 */
export function mountBackupSettings(router: Router, hub: Hub): void {
  router.get(`${BACKUP_SETTINGS_PATH}state`, (ctx) => {
    sessionOf(ctx);
    answer(ctx, hub);
  });

  router.post(BACKUP_SETTINGS_PATH, async (ctx) => {
    const session = changingSession(ctx);
    const current = readBackupSettings(hub.db);
    const target = field(ctx, 'target')?.trim();
    const s3 = { endpoint: field(ctx, 's3_endpoint')?.trim(), region: field(ctx, 's3_region')?.trim(), accessKeyId: field(ctx, 's3_access_key_id')?.trim(), secretAccessKey: field(ctx, 's3_secret_access_key') || undefined };
    const everySeconds = count(ctx, 'every_seconds', 366 * 86400);
    const keep = { daily: count(ctx, 'keep_daily', 1000), weekly: count(ctx, 'keep_weekly', 1000) };
    const passphrase = field(ctx, 'passphrase') || undefined;
    if (passphrase !== undefined && passphrase.length < 8) throw new HttpError(400, 'The passphrase must have at least 8 characters (several words are best)');
    if (target) {
      const problem = targetProblem(target, hub.dataDir);
      if (problem) throw new HttpError(400, problem.charAt(0).toUpperCase() + problem.slice(1));
    }
    if (s3.endpoint) {
      try {
        const u = new URL(s3.endpoint);
        if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error();
      } catch {
        throw new HttpError(400, 'The S3 endpoint must be an http(s) address');
      }
    }
    const next: BackupSettings = {
      target: target ?? current.target,
      everySeconds: everySeconds ?? current.everySeconds,
      keep: { daily: keep.daily ?? current.keep.daily, weekly: keep.weekly ?? current.keep.weekly },
      passphrase: passphrase ?? current.passphrase,
      s3: { endpoint: s3.endpoint ?? current.s3.endpoint, region: s3.region ?? current.s3.region, accessKeyId: s3.accessKeyId ?? current.s3.accessKeyId, secretAccessKey: s3.secretAccessKey ?? current.s3.secretAccessKey },
    };
    if (next.keep.daily + next.keep.weekly < 1) throw new HttpError(400, 'Keep at least one backup');
    if (parseS3Url(next.target) && !(next.passphrase || process.env.HEARTH_BACKUP_PASSPHRASE)) throw new HttpError(400, 'Backups to S3 leave this computer, so they are encrypted: choose a passphrase');
    const whereChanges = next.target !== current.target || next.s3.endpoint !== current.s3.endpoint || next.s3.accessKeyId !== current.s3.accessKeyId || next.s3.secretAccessKey !== current.s3.secretAccessKey || next.passphrase !== current.passphrase;
    if (whereChanges) {
      const account = getAccount(hub.db, session.account_id);
      // Guessing the password here counts as failed logins, like the login page's.
      hub.throttle.check(ctx.ip);
      if (!account || !(await verifyPassword(field(ctx, 'password') ?? '', account.account_password))) {
        hub.throttle.fail(ctx.ip);
        throw new HttpError(403, 'Your Hearth password is needed (and must be right) to change where backups go or their passphrase');
      }
      hub.throttle.succeed(ctx.ip);
    }
    saveBackupSettings(hub.db, next);
    hub.backups.plan();
    answer(ctx, hub);
  });

  router.post(`${BACKUP_SETTINGS_PATH}run`, (ctx) => {
    changingSession(ctx);
    if (!readBackupSettings(hub.db).target) throw new HttpError(409, 'Choose where backups go first');
    void hub.backups.runNow();
    answer(ctx, hub, 202);
  });
}
