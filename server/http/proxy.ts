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

/** The client's address as a reverse proxy on this machine (the peer) reports it in X-Forwarded-For; undefined for other peers or without one. */
export function forwardedClient(peer: string | undefined, forwardedFor: string): string | undefined {
  if (!isLoopback(peer)) return undefined;
  const client = lastEntry(forwardedFor)?.replace(/^\[(.*)\]$/, '$1');
  return client && isIP(client) ? client : undefined;
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
      const client = forwardedClient(ctx.req.socket.remoteAddress, ctx.get('x-forwarded-for'));
      if (client) ctx.request.ip = client;
      if (lastEntry(ctx.get('x-forwarded-proto'))?.toLowerCase() === 'https') ctx.cookies.secure = true;
    }
    await next();
  };
}
