import type { Context, Next } from 'koa';

/**
 * Paths pages of any origin may call (browser-based Mastodon clients such as Elk and Phanpy), with
 * the methods each allows: the rules Mastodon's server has, plus the hub's photo and file URLs
 * (media and avatars). HTML pages are not among them.
 */
const RULES: { matches: (path: string) => boolean; methods: string }[] = [
  { matches: (p) => p.startsWith('/api/'), methods: 'GET, POST, PUT, DELETE, PATCH, OPTIONS' },
  { matches: (p) => p === '/oauth/token' || p === '/oauth/revoke', methods: 'POST' },
  { matches: (p) => /^\/(\.well-known|nodeinfo|photo|attach)\//.test(p), methods: 'GET' },
];

/** Clients page with Link; the rest are what Mastodon lets scripts read too. */
const EXPOSED = 'Link, X-RateLimit-Reset, X-RateLimit-Limit, X-RateLimit-Remaining, X-Request-Id';

/** How long a browser may keep a preflight's answer, in seconds (Chromium's own cap). */
const PREFLIGHT_MAX_AGE = '7200';

/** A list of header names, as Access-Control-Request-Headers carries it. */
const HEADER_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:\s*,\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;

/**
 * Cross-origin access as Mastodon grants it: `Access-Control-Allow-Origin: *` and never
 * Allow-Credentials. A browser then sends no cookie with a foreign page's request, or withholds the
 * answer from that page when it asked for cookies to be sent, so only what a request's own
 * credentials (a bearer token) open is readable. Preflights on these paths answer 204 here.
 */
export function cors() {
  return async (ctx: Context, next: Next) => {
    const rule = RULES.find((r) => r.matches(ctx.path));
    if (!rule) return next();
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Access-Control-Expose-Headers', EXPOSED);
    if (ctx.method !== 'OPTIONS' || !ctx.get('access-control-request-method')) return next();
    ctx.set('Access-Control-Allow-Methods', rule.methods);
    // A '*' would not cover Authorization, so the names asked for are allowed by name.
    const asked = ctx.get('access-control-request-headers').trim();
    if (HEADER_LIST.test(asked)) ctx.set('Access-Control-Allow-Headers', asked);
    ctx.set('Access-Control-Max-Age', PREFLIGHT_MAX_AGE);
    ctx.set('Vary', 'Access-Control-Request-Headers');
    ctx.status = 204;
  };
}
