import type { Context, Next } from 'koa';

/** A path as RFC 3986 allows it (unreserved, escapes, sub-delims, ':', '@', '/'), then any query. */
const ORIGIN_FORM = /^\/[\w\-.~%!$&'()*+,;=:@/]*(?:\?[^#]*)?$/;

/**
 * A WebSocket request's target as a URL: a path with its query ('/api/v1/streaming?stream=public')
 * or an absolute http(s)/ws(s) URL; undefined for anything else ('//[', a path with '[' or '\').
 * Stricter than the pages: no WebSocket client sends what RFC 3986 does not allow. Repeated slashes
 * in the path are merged.
 */
export function upgradeTarget(target: string | undefined): URL | undefined {
  if (!target) return undefined;
  try {
    if (ORIGIN_FORM.test(target)) {
      // Repeated slashes are merged, as for every other request (merge-slashes.ts).
      const q = target.indexOf('?');
      const path = (q < 0 ? target : target.slice(0, q)).replace(/\/{2,}/g, '/');
      return new URL(`http://hub${path}${q < 0 ? '' : target.slice(q)}`);
    }
    if (/^(https?|wss?):\/\//i.test(target)) return new URL(target);
  } catch {
    // Not a URL.
  }
  return undefined;
}

/**
 * Answers 400 to a request whose target the router cannot read (an absolute URL with a broken host,
 * such as `GET http://[`), before anything asks for its path: Koa throws there, and in the error
 * handlers too.
 */
export function malformedTargets() {
  return (ctx: Context, next: Next) => {
    try {
      void ctx.path;
    } catch {
      ctx.status = 400;
      ctx.set('Connection', 'close');
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'Malformed request target';
      return undefined;
    }
    return next();
  };
}
