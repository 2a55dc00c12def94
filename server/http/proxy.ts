import { isIP } from 'node:net';
import type { Context, Next } from 'koa';

/** Whether a peer address is this machine. */
export function isLoopback(address: string | undefined): boolean {
  return !!address && (address === '::1' || /^(::ffff:)?127\./.test(address));
}

/** The last entry of a comma-separated forwarding header (the one the nearest proxy added). */
function lastEntry(header: string): string | undefined {
  return header.split(',').map((s) => s.trim()).filter(Boolean).pop();
}

/**
 * `hearth serve --trust-proxy`: a request that comes from loopback (a reverse proxy on this machine,
 * such as Caddy or nginx terminating TLS) is taken at the word of the X-Forwarded-For and
 * X-Forwarded-Proto headers the proxy added: `ctx.ip` becomes the client's address (so failed logins
 * are throttled per client, not per proxy) and a request the proxy received over https may set
 * secure cookies. From any other address the headers are ignored: anybody can send them.
 */
export function trustedProxyHeaders() {
  return async (ctx: Context, next: Next) => {
    if (isLoopback(ctx.req.socket.remoteAddress)) {
      const client = lastEntry(ctx.get('x-forwarded-for'))?.replace(/^\[(.*)\]$/, '$1');
      if (client && isIP(client)) ctx.request.ip = client;
      if (lastEntry(ctx.get('x-forwarded-proto'))?.toLowerCase() === 'https') ctx.cookies.secure = true;
    }
    await next();
  };
}
