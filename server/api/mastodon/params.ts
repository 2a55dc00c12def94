import type { Context } from 'koa';
import { mergedParams, ParamReader, type Params, type UploadedFile } from '../../http/params.js';

/** JSON body fields as parameters: arrays stay lists, scalars become text, objects stay JSON text. */
function jsonParams(body: unknown): Params {
  const out: Params = {};
  if (!body || typeof body !== 'object' || Array.isArray(body)) return out;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (value === null || value === undefined) continue;
    const text = (v: unknown) => (typeof v === 'object' ? JSON.stringify(v) : String(v));
    out[key] = Array.isArray(value) ? value.map(text) : text(value);
  }
  return out;
}

/** Mastodon apps send query strings, forms, multipart and JSON bodies alike. */
export function mastodonParams(ctx: Context): ParamReader {
  const files = ((ctx.request as { files?: Record<string, UploadedFile | UploadedFile[]> }).files ?? {}) as Record<string, UploadedFile | UploadedFile[]>;
  const values = mergedParams(ctx);
  if (ctx.request.is('application/json', 'application/*+json')) Object.assign(values, jsonParams((ctx.request as { body?: unknown }).body));
  return new ParamReader(values, files);
}
