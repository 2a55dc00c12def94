import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Hub } from '../hub-context.js';
import type { ChannelRow } from '../store/rows.js';
import { reservePhotoId } from '../store/photos.js';
import { badRequest, notFound } from '../http/errors.js';
import { uploadMedia, type UploadedMedia } from './media.js';

/** Twitter's limit on the parts of one upload; parts arrive as segment_index 0, 1, … */
const MAX_SEGMENTS = 1000;
/** An upload not finished within this time is dropped (Twitter gives an hour to upload, 24 h to use). */
const SESSION_MS = 60 * 60 * 1000;
/** Uploads one channel may have in progress at once (each may hold up to the upload limit on disk). */
const MAX_OPEN_PER_CHANNEL = 20;

interface Session {
  mediaId: number;
  channelId: number;
  totalBytes: number;
  mediaType: string;
  started: number;
  /** Stored segment files by segment index. */
  segments: Map<number, { path: string; size: number }>;
  /** Appends and the finalize run one after the other. */
  busy: Promise<unknown>;
}

const sessionsOf = new WeakMap<Hub, Map<number, Session>>();

function sessions(hub: Hub): Map<number, Session> {
  let s = sessionsOf.get(hub);
  if (!s) sessionsOf.set(hub, (s = new Map()));
  return s;
}

const dirOf = (hub: Hub) => join(hub.dataDir, 'tmp', 'chunked');

async function drop(hub: Hub, s: Session): Promise<void> {
  sessions(hub).delete(s.mediaId);
  await Promise.all([...s.segments.values()].map((seg) => rm(seg.path, { force: true })));
}

async function dropExpired(hub: Hub, now: number): Promise<void> {
  for (const s of [...sessions(hub).values()]) if (now - s.started > SESSION_MS) await drop(hub, s);
}

/** The channel's unfinished upload with this media id; 404 otherwise. */
function sessionFor(hub: Hub, channel: ChannelRow, mediaId: number): Session {
  const s = sessions(hub).get(mediaId);
  if (!s || s.channelId !== channel.channel_id || Date.now() - s.started > SESSION_MS) throw notFound(`no upload in progress with media_id ${mediaId}`);
  return s;
}

function serially<T>(s: Session, work: () => Promise<T>): Promise<T> {
  const run = s.busy.then(work, work);
  s.busy = run.catch(() => undefined);
  return run;
}

/**
 * media/upload command=INIT: announces a picture of `totalBytes` bytes and answers the media id it
 * will have, which APPEND, FINALIZE, STATUS and statuses/update use.
 */
export async function initUpload(hub: Hub, channel: ChannelRow, totalBytes: number, mediaType: string): Promise<number> {
  if (!Number.isSafeInteger(totalBytes) || totalBytes <= 0) throw badRequest('total_bytes must be a positive number of bytes');
  if (totalBytes > hub.limits.maxUploadBytes) throw badRequest(`total_bytes is over the upload limit of ${hub.limits.maxUploadBytes} bytes`);
  await dropExpired(hub, Date.now());
  const open = [...sessions(hub).values()].filter((s) => s.channelId === channel.channel_id).length;
  if (open >= MAX_OPEN_PER_CHANNEL) throw badRequest(`${open} uploads are already in progress; finish them (FINALIZE) or wait an hour`);
  await mkdir(dirOf(hub), { recursive: true });
  const mediaId = reservePhotoId(hub.db);
  sessions(hub).set(mediaId, { mediaId, channelId: channel.channel_id, totalBytes, mediaType, started: Date.now(), segments: new Map(), busy: Promise.resolve() });
  return mediaId;
}

/** A part of an upload: a file the body parser stored, or the bytes of a base64 `media_data`. */
export type Segment = { filepath: string } | { bytes: Buffer };

/** media/upload command=APPEND: stores part `index` of the upload (a part sent again replaces it). */
export async function appendUpload(hub: Hub, channel: ChannelRow, mediaId: number, index: number, segment: Segment): Promise<void> {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_SEGMENTS) throw badRequest(`segment_index must be 0 to ${MAX_SEGMENTS - 1}`);
  const s = sessionFor(hub, channel, mediaId);
  await serially(s, async () => {
    const path = join(dirOf(hub), `${mediaId}-${index}`);
    const size = 'bytes' in segment ? segment.bytes.length : (await stat(segment.filepath)).size;
    const others = [...s.segments].reduce((n, [i, seg]) => (i === index ? n : n + seg.size), 0);
    if (others + size > s.totalBytes) throw badRequest(`the parts add up to more than total_bytes (${s.totalBytes})`);
    if ('bytes' in segment) await writeFile(path, segment.bytes);
    else await rename(segment.filepath, path);
    s.segments.set(index, { path, size });
  });
}

/**
 * media/upload command=FINALIZE: joins the parts and stores the picture under the media id INIT
 * answered. 400 when parts are missing, the sizes do not add up, or it is not a picture.
 */
export async function finalizeUpload(hub: Hub, channel: ChannelRow, mediaId: number): Promise<UploadedMedia> {
  const s = sessionFor(hub, channel, mediaId);
  return serially(s, async () => {
    if (!sessions(hub).has(mediaId)) throw notFound(`no upload in progress with media_id ${mediaId}`);
    const count = s.segments.size;
    for (let i = 0; i < count; i++) if (!s.segments.has(i)) throw badRequest(`segment ${i} is missing`);
    const received = [...s.segments.values()].reduce((n, seg) => n + seg.size, 0);
    if (received !== s.totalBytes) throw badRequest(`received ${received} of ${s.totalBytes} bytes`);
    const joined = join(dirOf(hub), `${mediaId}-all`);
    try {
      const out = createWriteStream(joined);
      for (let i = 0; i < count; i++) await pipeline(createReadStream(s.segments.get(i)!.path), out, { end: i === count - 1 });
      // Whether it is stored or refused (not a picture), the upload is over.
      return await uploadMedia(hub, channel, { filepath: joined, originalFilename: `upload-${mediaId}`, mimetype: s.mediaType }, { mediaId });
    } finally {
      await drop(hub, s);
      await rm(joined, { force: true });
    }
  });
}
