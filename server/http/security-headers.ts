import type { Context, Next } from 'koa';

/**
 * The policy of every HTML page: scripts only from the hub itself (the built UI has no inline
 * script), no framing by any site (clickjacking), no plugins. Post images and media may come from
 * any web address, since posts link them; styles may be inline (the server pages' own <style>).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: http: https:",
  "media-src 'self' blob: http: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Headers on every answer, errors included: no content sniffing (an uploaded file or a JSONP
 * answer is never run as something else), and the policy above on HTML pages.
 */
export function securityHeaders() {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } finally {
      ctx.set('X-Content-Type-Options', 'nosniff');
      if (/^text\/html\b/i.test(ctx.response.get('Content-Type') || ctx.type || '')) {
        // A stricter policy of the answer's own (an uploaded HTML file's sandbox) stays, unframable too.
        const own = ctx.response.get('Content-Security-Policy');
        ctx.set('Content-Security-Policy', !own ? CONTENT_SECURITY_POLICY : /frame-ancestors/.test(own) ? own : `${own}; frame-ancestors 'none'`);
        ctx.set('X-Frame-Options', 'DENY');
      }
    }
  };
}
