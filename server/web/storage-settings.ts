import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Hub } from '../hub-context.js';
import { HttpError } from '../http/errors.js';
import { assertSameOrigin } from '../http/web.js';
import { cleanOldNotifications, cleanRemoteMedia, storageReport, StorageBusy, vacuum } from '../services/storage.js';
import { getOwnerAccount } from '../store/accounts.js';
import type { SessionRow } from '../store/sessions.js';
import { currentSession } from './auth-pages.js';

/** JSON for Settings → Storage: GET reads the sizes; POSTs below clean up and compact. */
export const STORAGE_SETTINGS_PATH = '/settings/storage/';

/** The longest age in days the owner may give for old notifications (ten years). */
const MAX_DAYS = 3650;

/** The hub owner's browser session: 401 without a session, 403 for another account's. */
function ownerSession(ctx: Context): SessionRow {
  const session = currentSession(ctx);
  if (!session) throw new HttpError(401, 'Log in first');
  if (getOwnerAccount(ctx.hub.db)?.account_id !== session.account_id) throw new HttpError(403, "Only the owner of this hub can see and clean up its storage");
  return session;
}

/** A change from the owner's page: same origin, and the session's CSRF token in X-CSRF-Token. */
function ownerChange(ctx: Context): void {
  assertSameOrigin(ctx);
  const session = ownerSession(ctx);
  if (ctx.get('x-csrf-token') !== session.csrf) throw new HttpError(403, 'The page has expired; reload it and try again');
  ctx.set('Cache-Control', 'no-store');
}

function days(ctx: Context): number {
  const body = (ctx.request as { body?: unknown }).body;
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>).days : undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,5}$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_DAYS) throw new HttpError(400, `Say how many days old, from 1 to ${MAX_DAYS}`);
  return n;
}

/**
 * Settings → Storage, for the owner only: the database's and the store's sizes by channel and kind;
 * removing old seen notifications and the remote media cache; compacting the database (VACUUM).
 */
export function mountStorageSettings(router: Router, hub: Hub): void {
  router.get(`${STORAGE_SETTINGS_PATH}state`, async (ctx) => {
    ownerSession(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await storageReport(hub);
  });

  router.post(`${STORAGE_SETTINGS_PATH}notifications`, (ctx) => {
    ownerChange(ctx);
    ctx.body = cleanOldNotifications(hub, days(ctx));
  });

  router.post(`${STORAGE_SETTINGS_PATH}remote-media`, async (ctx) => {
    ownerChange(ctx);
    ctx.body = await cleanRemoteMedia(hub);
  });

  router.post(`${STORAGE_SETTINGS_PATH}vacuum`, (ctx) => {
    ownerChange(ctx);
    try {
      ctx.body = vacuum(hub);
    } catch (err) {
      if (err instanceof StorageBusy) throw new HttpError(409, err.message);
      throw err;
    }
  });
}
