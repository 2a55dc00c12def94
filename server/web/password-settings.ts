import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Hub } from '../hub-context.js';
import { HttpError } from '../http/errors.js';
import { assertSameOrigin } from '../http/web.js';
import { verifyPassword } from '../auth/passwords.js';
import { changePassword, ChannelCreationError } from '../services/channels.js';
import { getAccount } from '../store/accounts.js';
import { currentSession } from './auth-pages.js';

export const PASSWORD_SETTINGS_PATH = '/settings/password';

function field(ctx: Context, name: string): unknown {
  const body = (ctx.request as { body?: unknown }).body;
  return body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const yes = (v: unknown) => v === true || v === 'true' || v === '1' || v === 'on';

/**
 * JSON for the Settings page's Password section: the owner changes the account's password with
 * the current one. Every other browser session ends; this one stays; apps are signed out when asked.
 */
export function mountPasswordSettings(router: Router, hub: Hub): void {
  router.post(PASSWORD_SETTINGS_PATH, async (ctx) => {
    assertSameOrigin(ctx);
    const session = currentSession(ctx);
    if (!session) throw new HttpError(401, 'Log in first');
    if (ctx.get('x-csrf-token') !== session.csrf) throw new HttpError(403, 'The page has expired; reload it and try again');
    const account = getAccount(hub.db, session.account_id);
    if (!account) throw new HttpError(401, 'Log in first');
    const password = text(field(ctx, 'password'));
    const confirm = field(ctx, 'confirm');
    if (confirm !== undefined && text(confirm) !== password) throw new HttpError(400, 'The new password and its repetition differ');
    // Guessing the current password here counts as failed logins, like the login page's.
    hub.throttle.check(ctx.ip);
    if (!(await verifyPassword(text(field(ctx, 'current')), account.account_password))) {
      hub.throttle.fail(ctx.ip);
      throw new HttpError(403, 'The current password is wrong');
    }
    hub.throttle.succeed(ctx.ip);
    try {
      const result = await changePassword(hub.db, account.account_id, password, { keepSessionId: session.id, revokeOAuth: yes(field(ctx, 'revoke_oauth')) });
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { success: true, sessions_ended: result.sessionsEnded, tokens_revoked: result.tokensRevoked };
    } catch (err) {
      if (err instanceof ChannelCreationError) throw new HttpError(400, err.message.charAt(0).toUpperCase() + err.message.slice(1));
      throw err;
    }
  });
}
