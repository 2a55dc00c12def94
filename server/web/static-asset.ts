import type { Context } from 'koa';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** The variants the build writes next to a file (renderer/precompress.ts), in the hub's order of preference. */
const VARIANTS = [
  { encoding: 'br', ending: '.br' },
  { encoding: 'gzip', ending: '.gz' },
] as const;

/** The quality (0 to 1) an Accept-Encoding header gives a content coding: its own entry, else `*`'s, else 0. */
export function encodingQuality(header: string, encoding: string): number {
  let wildcard = 0;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    const value = Number.isFinite(quality) ? Math.min(Math.max(quality, 0), 1) : 0;
    if (name === encoding) return value;
    if (name === '*') wildcard = value;
  }
  return wildcard;
}

/** The best of the available codings the client accepts (highest quality, then the hub's order), or undefined for none. */
export function chooseEncoding(header: string, available: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestQuality = 0;
  for (const encoding of available) {
    const quality = encodingQuality(header, encoding);
    if (quality > bestQuality) [best, bestQuality] = [encoding, quality];
  }
  return best;
}

/**
 * Sends a file of the built UI: the prebuilt brotli or gzip variant when the request's
 * Accept-Encoding takes it, else the file itself; never a coding the client did not ask for.
 */
export async function sendAsset(ctx: Context, file: string, opts: { type: string; cacheControl: string }): Promise<void> {
  ctx.vary('Accept-Encoding');
  const present = VARIANTS.filter((v) => existsSync(file + v.ending));
  const encoding = chooseEncoding(ctx.get('accept-encoding'), present.map((v) => v.encoding));
  const variant = present.find((v) => v.encoding === encoding);
  ctx.type = opts.type;
  ctx.set('Cache-Control', opts.cacheControl);
  if (variant) ctx.set('Content-Encoding', variant.encoding);
  ctx.body = await readFile(variant ? file + variant.ending : file);
}
