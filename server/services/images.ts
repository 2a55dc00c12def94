import type Sharp from 'sharp';
import type { Metadata } from 'sharp';
import { lazyPackage } from '../util/lazy.js';
import { badRequest, HttpError } from '../http/errors.js';
import { trimMalloc } from '../util/allocator.js';

// Every upload is a different file, so libvips' operation cache never hits; it only holds memory.
// Native code, but no build per runtime: sharp is a Node-API addon (its binding.gyp sets
// NAPI_VERSION=9; @img/sharp-<platform>'s .node exports napi_register_module_v1 and no
// node_register_module_v<ABI>, and imports no V8 symbols), so the binary npm installs loads in
// every Node and in Electron's main process alike. Packaged, it must sit outside app.asar next to
// libvips (asarUnpack in build/electron-builder.yml).
const sharp = lazyPackage<typeof Sharp>('sharp', (s) => s.cache(false));

/**
 * Largest image (width × height of the input) that is decoded at all: a small file can declare
 * enormous dimensions (a pixel bomb) and would otherwise exhaust memory when decoded.
 */
export const MAX_INPUT_PIXELS = 100_000_000;

/**
 * Longest side that is decoded at all. Decoding time follows the number of rows and columns as
 * much as the pixels: a 1 × 99,000,000 PNG of 100 KB has fewer pixels than a photo and held the
 * render slot for 98 s. Wide panoramas from phones stay well within it.
 */
export const MAX_INPUT_SIDE = 30_000;

/**
 * Time budget of one render. A 100-megapixel image renders in a few seconds here; an image that
 * takes longer is refused rather than holding the one render slot (and the uploads behind it).
 */
export const RENDER_TIMEOUT_SECONDS = 20;

/** An image too large to decode (its header says so): 422, and not taken as a plain file either. */
export class ImageTooLarge extends HttpError {
  constructor() {
    super(422, `the image is too large to process: at most ${MAX_INPUT_SIDE} pixels per side and ${MAX_INPUT_PIXELS / 1_000_000} megapixels`);
  }
}

/** An image whose rendering ran out of its time budget. */
export class ImageTooSlow extends HttpError {
  constructor() {
    super(422, `the image takes too long to process (more than ${RENDER_TIMEOUT_SECONDS} s)`);
  }
}

/** Longest side of scale 0; larger originals are scaled down to it. */
export const MAX_ORIGINAL_SIDE = 4096;

/** Bounding box per scale: 0–3 fit inside (never enlarged), 4–6 square crops (profile photos). */
export const SCALE_SIZES: Record<number, { size: number; square: boolean }> = {
  0: { size: MAX_ORIGINAL_SIDE, square: false },
  1: { size: 640, square: false },
  2: { size: 320, square: false },
  3: { size: 160, square: false },
  4: { size: 300, square: true },
  5: { size: 80, square: true },
  6: { size: 48, square: true },
};

export const PHOTO_SCALES = [0, 1, 2, 3];
/** ext/photo/create and ext/photo/update store only these (compat seed). */
export const COMPAT_PHOTO_SCALES = [0, 1, 2];
export const PROFILE_SCALES = [4, 5, 6];

const OUTPUT: Record<string, { format: 'jpeg' | 'png' | 'gif' | 'webp'; mimetype: string }> = {
  jpeg: { format: 'jpeg', mimetype: 'image/jpeg' },
  png: { format: 'png', mimetype: 'image/png' },
  gif: { format: 'gif', mimetype: 'image/gif' },
  webp: { format: 'webp', mimetype: 'image/webp' },
};
// Decodable formats that browsers may not show are re-encoded as JPEG (PNG when transparent).
const CONVERTED = new Set(['tiff', 'heif', 'avif']);

export interface ImageInfo {
  /** Decoder name reported by the image library (jpeg, png, …). */
  format: string;
  /** Mime type of the stored scales. */
  mimetype: string;
  /** Dimensions after EXIF orientation (of one frame for animations). */
  width: number;
  height: number;
  animated: boolean;
  orientation: number;
}

export interface RenderedScale {
  scale: number;
  /** Bytes written. */
  size: number;
  width: number;
  height: number;
  mimetype: string;
}

function notAnImage(detail?: string): Error {
  return badRequest(`the upload is not a decodable image${detail ? ` (${detail})` : ''}`);
}

/** Reads an image's header: refuses (400) anything that is not a supported raster image or is too large to decode. */
export async function inspectImage(path: string): Promise<ImageInfo> {
  let meta: Metadata;
  const library = sharp(); // outside the try: a library that failed to load is not a bad image
  try {
    meta = await library(path, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch (err) {
    if (/pixel limit/i.test((err as Error).message)) throw new ImageTooLarge();
    throw notAnImage();
  }
  const format = String(meta.format);
  const out = OUTPUT[format] ?? (CONVERTED.has(format) ? (meta.hasAlpha ? OUTPUT.png : OUTPUT.jpeg) : undefined);
  if (!out) throw notAnImage(`unsupported format ${format}`);
  const animated = (meta.pages ?? 1) > 1 && (format === 'gif' || format === 'webp');
  const frameHeight = animated ? (meta.pageHeight ?? meta.height) : meta.height;
  if (!meta.width || !frameHeight) throw notAnImage();
  if (meta.width * meta.height > MAX_INPUT_PIXELS || meta.width > MAX_INPUT_SIDE || meta.height > MAX_INPUT_SIDE) throw new ImageTooLarge();
  const orientation = meta.orientation ?? 1;
  const swap = !animated && orientation >= 5;
  return {
    format,
    mimetype: out.mimetype,
    width: swap ? frameHeight : meta.width,
    height: swap ? meta.width : frameHeight,
    animated,
    orientation,
  };
}

/**
 * How many scales are rendered at once, whatever the number of uploads or cores. Each render's
 * decoder memory is freed into the allocator arena of the pool thread that ran it, and glibc keeps
 * those arenas. With 12-megapixel JPEGs from 10 clients on 2 cores: one at a time peaked at 195 MB
 * resident and 2.9 photos/s, two at a time at 252 MB and 4.1 photos/s. A personal hub receives a
 * few photos at a time from a phone, and memory held under load is taken from the whole desktop.
 */
const MAX_PARALLEL_RENDERS = 1;
let rendering = 0;
const waiting: (() => void)[] = [];

async function inRenderSlot<T>(work: () => Promise<T>): Promise<T> {
  while (rendering >= MAX_PARALLEL_RENDERS) await new Promise<void>((resolve) => waiting.push(resolve));
  rendering++;
  try {
    return await work();
  } finally {
    rendering--;
    waiting.shift()?.();
  }
}

/**
 * From this size on, the memory that decoding the full image took (tens of MB for a phone photo)
 * is given back as soon as its full-size copy is written: 12 MP uploads from 2 clients, after a
 * run of posting, peaked at 200-235 MB instead of 236-261 MB, at 2.6-3.4 instead of 3.6 photos/s
 * (the trim, and the decoder faulting its memory in again). The smaller scales decode at a
 * fraction of the size and are left alone.
 */
const LARGE_IMAGE_PIXELS = 4_000_000;

/**
 * Decodes the image, applies its EXIF orientation and writes one scale to `dest`; 400 when decoding
 * fails. Written to a file rather than returned: buffers of several MB per upload are only freed
 * when the garbage collector gets round to them, and under a stream of uploads they piled up.
 */
export async function renderScale(path: string, info: ImageInfo, scale: number, dest: string): Promise<RenderedScale> {
  try {
    return await inRenderSlot(() => render(path, info, scale, dest));
  } finally {
    if (scale === 0 && info.width * info.height >= LARGE_IMAGE_PIXELS) trimMalloc();
  }
}

async function render(path: string, info: ImageInfo, scale: number, dest: string): Promise<RenderedScale> {
  const spec = SCALE_SIZES[scale];
  if (!spec) throw new Error(`unknown photo scale ${scale}`);
  const out = Object.values(OUTPUT).find((o) => o.mimetype === info.mimetype)!;
  const library = sharp();
  try {
    let img = library(path, { limitInputPixels: MAX_INPUT_PIXELS, animated: info.animated }).timeout({ seconds: RENDER_TIMEOUT_SECONDS });
    if (!info.animated && info.orientation > 1) img = img.rotate();
    img = spec.square
      ? img.resize(spec.size, spec.size, { fit: 'cover' })
      : img.resize(spec.size, spec.size, { fit: 'inside', withoutEnlargement: true });
    switch (out.format) {
      case 'jpeg':
        // Optimised Huffman tables need the whole image's coefficients in memory: hundreds of MB for
        // a full-size original, for a few percent of file size. The small scales keep them.
        img = img.jpeg({ quality: 88, optimiseCoding: scale !== 0 });
        break;
      case 'png':
        img = img.png();
        break;
      case 'webp':
        img = img.webp({ quality: 85 });
        break;
      case 'gif':
        img = img.gif();
        break;
    }
    const result = await img.toFile(dest);
    const height = info.animated && result.pageHeight ? result.pageHeight : result.height;
    return { scale, size: result.size, width: result.width, height, mimetype: out.mimetype };
  } catch (err) {
    const message = (err as Error).message;
    if (/pixel limit/i.test(message)) throw new ImageTooLarge();
    if (/^timeout:/i.test(message)) throw new ImageTooSlow();
    throw writeFailure(message) ?? notAnImage(message.split('\n')[0]);
  }
}

// libvips reports the errno of a failed write only as text.
const SYSTEM_ERRORS: Record<string, string> = {
  'No space left on device': 'ENOSPC',
  'Disk quota exceeded': 'EDQUOT',
  'File too large': 'EFBIG',
  'Read-only file system': 'EROFS',
  'Permission denied': 'EACCES',
  'No such file or directory': 'ENOENT',
  'Not a directory': 'ENOTDIR',
};

/** A failure to write the output (not to decode the input) as a file-system error, so that it is reported as the store's (507, 503). */
function writeFailure(message: string): NodeJS.ErrnoException | undefined {
  if (!/unable to (open for )?write|write error/.test(message)) return undefined;
  const system = /system error: ([^\n]+)/.exec(message)?.[1]?.trim();
  return Object.assign(new Error(message.split('\n')[0]), { code: (system && SYSTEM_ERRORS[system]) || 'EIO' });
}
