import type { Context, Next } from 'koa';
import { HttpError } from '../http/errors.js';

/** The largest activity an inbox takes; Mastodon's own limit is about as large. */
export const MAX_ACTIVITY_BYTES = 1024 * 1024;

/** Reads a request body up to `limit` bytes; 413 beyond. */
async function readBody(ctx: Context, limit: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limit) throw new HttpError(413, 'The activity is too large');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new HttpError(413, 'The activity is too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The request as the Fetch API sees it, at the hub's public address (never the Host header's). */
export async function toFetchRequest(ctx: Context, publicOrigin: string, limit = MAX_ACTIVITY_BYTES): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const url = new URL(ctx.url, publicOrigin);
  const hasBody = ctx.method !== 'GET' && ctx.method !== 'HEAD';
  return new Request(url, { method: ctx.method, headers, body: hasBody ? new Uint8Array(await readBody(ctx, limit)) : undefined });
}

/** Writes a Fetch API response as the Koa answer. */
export async function sendFetchResponse(ctx: Context, response: Response): Promise<void> {
  ctx.status = response.status;
  response.headers.forEach((value, name) => {
    if (name !== 'content-length') ctx.set(name, value);
  });
  ctx.body = response.body ? Buffer.from(await response.arrayBuffer()) : '';
  if (!response.body) ctx.body = null;
}

/**
 * Hands a request to `handle` (Fedify's fetch) when `claims` says it is federation's, and to the
 * next middleware when `handle` answers undefined (not found, or a browser asking for HTML).
 */
export function fetchMiddleware(claims: (ctx: Context) => boolean, handle: (request: Request) => Promise<Response | undefined>, publicOrigin: () => string) {
  return async (ctx: Context, next: Next) => {
    if (!claims(ctx)) return next();
    const response = await handle(await toFetchRequest(ctx, publicOrigin()));
    if (!response) return next();
    await sendFetchResponse(ctx, response);
  };
}
