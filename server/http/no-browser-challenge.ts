import type { Context, Next } from 'koa';

/**
 * A 401 with a Basic challenge makes a browser ask for a name and password in its own dialog, even
 * for a script's fetch, and hold the request until it is answered. The UI says so with
 * `X-Requested-With: XMLHttpRequest` (the usual convention) and shows its own login form instead, so
 * its 401s go without the challenge. Other clients keep it: some send credentials only when asked.
 */
export function noBrowserChallenge() {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } finally {
      if (ctx.status === 401 && ctx.get('x-requested-with').toLowerCase() === 'xmlhttprequest' && /^basic\b/i.test(ctx.response.get('www-authenticate'))) {
        ctx.remove('WWW-Authenticate');
      }
    }
  };
}
