import type { Context, Next } from 'koa';

/**
 * Merges repeated slashes in the request's path (`//api/v1/instance`, `/api//v1//timelines/public`),
 * as clients given an address with a trailing slash send them. It runs before everything else, so
 * the merged path meets every guard and route the plain one does; the result is always a path on
 * this hub, never `//host/...`. ctx.originalUrl keeps the path as sent.
 */
export function mergeSlashes() {
  return (ctx: Context, next: Next) => {
    const path = ctx.path;
    if (path.includes('//')) ctx.path = path.replace(/\/{2,}/g, '/');
    return next();
  };
}
