import type { Context, Middleware, Next } from 'koa';
import { SESSION_COOKIE } from '../auth/identity.js';
import { findSession } from '../store/sessions.js';
import { hasBody, isMultipart, refusedBeforeBody } from '../http/body.js';
import { AUTHORIZE_PATHS } from './oauth-authorize.js';
import { allowLongBody } from '../http/body-deadline.js';

/**
 * The body parser for the hub's own pages, the OAuth approval page under /api/ among them (the
 * APIs read their bodies themselves, after checking the caller). Files are only taken from the owner's session: an anonymous multipart body is
 * refused before any of it reaches the disk.
 */
export function webBody(parseBody: Middleware) {
  return (ctx: Context, next: Next) => {
    const apiPath = ctx.path === '/api' || ctx.path.startsWith('/api/');
    if (apiPath && !AUTHORIZE_PATHS.includes(ctx.path)) return next();
    if (hasBody(ctx) && isMultipart(ctx)) {
      const token = ctx.cookies.get(SESSION_COOKIE);
      if (!token || !findSession(ctx.hub.db, token)) throw refusedBeforeBody(401, 'Log in first');
      allowLongBody(ctx);
    }
    return parseBody(ctx, next);
  };
}
