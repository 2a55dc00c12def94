import { createHash } from 'node:crypto';
import type Sharp from 'sharp';
import { lazyPackage } from '../util/lazy.js';

// A Node-API addon: the same binary serves Node and Electron (see services/images.ts).
const sharp = lazyPackage<typeof Sharp>('sharp');

const cache = new Map<string, Buffer>();

/**
 * A default avatar for a channel without a profile photo: a symmetric 5×5 pattern in a colour
 * derived from the channel's hash, as a PNG of the given size. The same hash gives the same image.
 */
export async function defaultAvatar(seed: string, size: number): Promise<Buffer> {
  const cacheKey = `${seed}:${size}`;
  const hit = cache.get(cacheKey);
  if (hit) return hit;
  const h = createHash('sha256').update(seed).digest();
  const fg = [h[0]! % 160 + 40, h[1]! % 160 + 40, h[2]! % 160 + 40];
  const bg = [240, 236, 230];
  const pixels = Buffer.alloc(size * size * 3);
  const cell = size / 6;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const cx = Math.floor((x - cell / 2) / cell);
      const cy = Math.floor((y - cell / 2) / cell);
      const inside = cx >= 0 && cx < 5 && cy >= 0 && cy < 5;
      const col = cx < 3 ? cx : 4 - cx;
      const on = inside && (h[3 + cy * 3 + col]! & 1) === 1;
      const c = on ? fg : bg;
      pixels.set(c, (y * size + x) * 3);
    }
  }
  const png = await sharp()(pixels, { raw: { width: size, height: size, channels: 3 } }).png().toBuffer();
  if (cache.size > 500) cache.clear();
  cache.set(cacheKey, png);
  return png;
}
