import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Hub } from '../server/hub.js';
import type { ChannelRow } from '../server/store/rows.js';
import { createPhoto, setProfilePhoto } from '../server/services/photos.js';
import { storeAttachment } from '../server/services/attachments.js';
import { albumName, photoTitle } from './seed-text.js';
import type { Random } from './random.js';

/** How many photos are processed at once (sharp and fsync run on libuv's pool). */
const PHOTO_CONCURRENCY = 4;

async function inParallel(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/** A small JPEG: a colour gradient with a few shapes, different for every index. */
export async function smallImage(rnd: Random, width = 320, height = 240): Promise<Buffer> {
  const c = () => rnd.int(0, 255);
  const [a, b] = [`rgb(${c()},${c()},${c()})`, `rgb(${c()},${c()},${c()})`];
  const shapes = Array.from({ length: 4 }, () => `<circle cx="${rnd.int(0, width)}" cy="${rnd.int(0, height)}" r="${rnd.int(10, 60)}" fill="rgb(${c()},${c()},${c()})"/>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>${shapes}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

export interface PhotoSeedResult {
  photos: number;
  albums: string[];
}

/** `count` photos in `albums` albums of the owner through the photo service, plus a profile photo. */
export async function seedPhotos(hub: Hub, rnd: Random, owner: ChannelRow, count: number, albums: number, tmpDir: string): Promise<PhotoSeedResult> {
  const names = Array.from({ length: albums }, (_, i) => `${albumName(rnd, i)} ${i + 1}`);
  const profile = join(tmpDir, 'profile.jpg');
  await writeFile(profile, await smallImage(rnd, 400, 400));
  await setProfilePhoto(hub, owner, { filepath: profile, originalFilename: 'me.jpg', mimetype: 'image/jpeg' });
  const images = await Promise.all(Array.from({ length: Math.min(count, 50) }, () => smallImage(rnd)));
  await inParallel(count, PHOTO_CONCURRENCY, async (i) => {
    const path = join(tmpDir, `photo-${i}.jpg`);
    await writeFile(path, images[i % images.length]!);
    await createPhoto(hub, owner, { filepath: path, originalFilename: `IMG_${String(10000 + i)}.jpg`, mimetype: 'image/jpeg' }, {
      album: names[i % names.length]!,
      title: photoTitle(rnd),
      description: rnd.chance(0.3) ? photoTitle(rnd) : '',
    });
  });
  return { photos: count, albums: names };
}

export interface FileSeedResult {
  files: number;
  bytes: number;
  bigFile: { hash: string; size: number; filename: string };
}

const KINDS = [
  { ext: 'txt', type: 'text/plain' },
  { ext: 'pdf', type: 'application/pdf' },
  { ext: 'zip', type: 'application/zip' },
  { ext: 'mp3', type: 'audio/mpeg' },
  { ext: 'csv', type: 'text/csv' },
];

/** `count` small files (1 KiB – 256 KiB) in a few folders and one big file, through the attachment service. */
export async function seedFiles(hub: Hub, rnd: Random, owner: ChannelRow, count: number, bigBytes: number, tmpDir: string): Promise<FileSeedResult> {
  const folders = ['Documents', 'Music', 'Archive', 'Receipts', ''];
  let bytes = 0;
  await inParallel(count, PHOTO_CONCURRENCY, async (i) => {
    const kind = rnd.pick(KINDS);
    const size = rnd.int(1024, 256 * 1024);
    const path = join(tmpDir, `file-${i}`);
    await writeFile(path, randomBytes(size));
    bytes += size;
    await storeAttachment(hub, owner, { filepath: path, originalFilename: `file-${i}.${kind.ext}`, mimetype: kind.type }, { folder: rnd.pick(folders) });
  });
  const bigPath = join(tmpDir, 'big');
  await writeFile(bigPath, randomBytes(bigBytes));
  const filename = 'holiday-video.mp4';
  const big = await storeAttachment(hub, owner, { filepath: bigPath, originalFilename: filename, mimetype: 'video/mp4' }, { folder: 'Videos' });
  return { files: count + 1, bytes: bytes + bigBytes, bigFile: { hash: big.hash, size: big.filesize, filename } };
}
