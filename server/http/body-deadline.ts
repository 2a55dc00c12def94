import type { IncomingMessage } from 'node:http';
import type { Context, Next } from 'koa';

/** Requests whose caller was authenticated before their body was read: they keep the server's request timeout. */
const authenticatedBodies = new WeakSet<IncomingMessage>();

/** The caller of this request is known before its body is read (an upload): it may take the long timeout. */
export function allowLongBody(ctx: Context): void {
  authenticatedBodies.add(ctx.req);
}

/**
 * A request body must have arrived within `timeoutMs` of its headers unless the caller was
 * authenticated before it was read (see allowLongBody); otherwise the hub answers 408 and closes the
 * connection. Without it an anonymous client could hold a connection for the whole request timeout
 * (meant for large uploads) by sending a form slowly, also to a path that answers without reading it
 * (Node reads and discards the rest to keep the connection).
 */
export function bodyDeadline(timeoutMs: number) {
  return (ctx: Context, next: Next) => {
    const { req, res } = ctx;
    if (req.complete || !(Number(req.headers['content-length']) > 0 || req.headers['transfer-encoding'])) return next();
    const socket = req.socket;
    const timer = setTimeout(() => {
      if (req.complete || socket.destroyed || authenticatedBodies.has(req)) return;
      if (res.headersSent) {
        socket.destroy();
        return;
      }
      const message = `The request body did not arrive within ${Math.round(timeoutMs / 1000)} s`;
      res.writeHead(408, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(message), Connection: 'close' });
      res.end(message, () => socket.destroy());
    }, timeoutMs);
    timer.unref();
    const stop = () => {
      clearTimeout(timer);
      req.off('end', stop);
      socket.off('close', stop);
    };
    req.once('end', stop);
    socket.once('close', stop);
    return next();
  };
}
