import type Sharp from 'sharp';
import type * as Blurhash from 'blurhash';
import { lazyPackage } from '../util/lazy.js';
import { MAX_INPUT_PIXELS } from './images.js';

const sharp = lazyPackage<typeof Sharp>('sharp', (s) => s.cache(false));
const blurhash = lazyPackage<typeof Blurhash>('blurhash');

/** The blurhash of a picture (4×3 components of a 32 px wide reduction, EXIF orientation applied). */
export async function blurhashOfImage(path: string): Promise<string> {
  const { data, info } = await sharp()(path, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(32, 32, { fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return blurhash().encode(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height, 4, 3);
}
