import { isIP } from 'node:net';
import type { Context, Next } from 'koa';
import { escapeHtml } from '../content/render.js';
import { HttpError, toHttpError } from './errors.js';

/** Errors outside the APIs (web pages, photo and file URLs): a short page, never a stack trace. */
export function webErrors() {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (err) {
      const { error, internal } = toHttpError(err);
      if (internal) ctx.hub.log.error(`${ctx.method} ${ctx.path}:`, err);
      ctx.status = error.status;
      for (const [k, v] of Object.entries(error.headers)) ctx.set(k, v);
      if (ctx.accepts('html', 'json') === 'json') {
        ctx.type = 'application/json';
        ctx.body = JSON.stringify({ success: false, message: error.message });
      } else {
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = `<!doctype html><meta charset="utf-8"><title>${error.status}</title><p>${escapeHtml(error.message)}</p>`;
      }
    }
  };
}

/**
 * Whether a Host header names this hub: IP literals, localhost, *.local names and the base URL's own
 * host do (DNS rebinding gives a foreign name). An absent header passes (HTTP/1.0).
 */
export function isHubHost(hostHeader: string, baseUrl: string): boolean {
  const hostname = hostnameOf(hostHeader);
  return (
    hostname === '' ||
    isIP(hostname) !== 0 ||
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname.endsWith('.local') ||
    hostname === new URL(baseUrl).hostname.toLowerCase()
  );
}

function hostnameOf(hostHeader: string): string {
  return hostHeader.replace(/:\d+$/, '').replace(/^\[|\]$/g, '').toLowerCase();
}

/**
 * Refuses requests whose Host header names a host other than the hub's (DNS rebinding, see
 * isHubHost). URLs in responses never come from this header anyway; they are built from the
 * configured base URL.
 */
export function hostGuard(baseUrl: () => string) {
  return async (ctx: Context, next: Next) => {
    const hostHeader = ctx.get('host');
    if (!isHubHost(hostHeader, baseUrl())) throw new HttpError(421, `This hub does not answer for the host ${hostnameOf(hostHeader)}`);
    await next();
  };
}

/**
 * Cross-site protection for cookie-authenticated form posts: the Origin (or Referer) must be this
 * hub. Browsers always send Origin on cross-site POSTs, so a foreign page is refused.
 */
export function assertSameOrigin(ctx: Context): void {
  const origin = ctx.get('origin') || ctx.get('referer');
  if (!origin) return;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new HttpError(403, 'Cross-site request refused');
  }
  // Behind a reverse proxy the Host header may name the hub's own address; the page's origin is then the base URL's.
  if (url.host !== ctx.get('host') && url.origin !== new URL(ctx.hub.baseUrl).origin) throw new HttpError(403, 'Cross-site request refused');
}
