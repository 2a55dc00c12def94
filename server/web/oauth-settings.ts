import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Hub } from '../hub-context.js';
import { HttpError } from '../http/errors.js';
import { assertSameOrigin } from '../http/web.js';
import { listGrants, revokeGrant } from '../services/app-access.js';
import { registerClient } from '../services/oauth.js';
import { registeredApp } from '../serializers/web/registered-app.js';
import { deleteOAuthClient, getOAuthClient, listOAuthClients } from '../store/oauth.js';
import type { SessionRow } from '../store/sessions.js';
import { currentSession } from './auth-pages.js';
import { formField } from './session-forms.js';

/** The page (part of the UI) where the owner registers apps and revokes their access. */
export const OAUTH_SETTINGS_PATH = '/settings/oauth/';

/** The owner's browser session; 401 without one. */
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

function answer(ctx: Context, status: number, body: unknown): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = body;
}

/**
 * JSON for the UI's apps page (/settings/oauth/): the apps registered for OAuth 1.0a, and every
 * access apps hold to the account's channels, of whatever kind (services/app-access.ts).
 */
export function mountOAuthSettings(router: Router, hub: Hub): void {
  router.get(`${OAUTH_SETTINGS_PATH}access`, (ctx) => {
    const session = sessionOf(ctx);
    answer(ctx, 200, { apps: listOAuthClients(hub.db, session.account_id).map(registeredApp), grants: listGrants(hub.db, session.account_id) });
  });

  router.post(`${OAUTH_SETTINGS_PATH}apps`, (ctx) => {
    const session = changingSession(ctx);
    const created = registerClient(hub, session.account_id, { name: formField(ctx, 'name'), key: formField(ctx, 'key'), secret: formField(ctx, 'secret'), redirect: formField(ctx, 'redirect'), icon: formField(ctx, 'icon') });
    answer(ctx, 201, { app: registeredApp(getOAuthClient(hub.db, created.client_id)!) });
  });

  router.post(`${OAUTH_SETTINGS_PATH}apps/delete`, (ctx) => {
    const session = changingSession(ctx);
    if (!deleteOAuthClient(hub.db, session.account_id, formField(ctx, 'client_id'))) throw new HttpError(404, 'No such application');
    answer(ctx, 200, { success: true });
  });

  router.post(`${OAUTH_SETTINGS_PATH}grants/revoke`, (ctx) => {
    const session = changingSession(ctx);
    revokeGrant(hub.db, session.account_id, formField(ctx, 'kind'), formField(ctx, 'id'));
    answer(ctx, 200, { success: true });
  });
}
