import { createHash } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Hub } from '../../hub-context.js';
import type { ChannelRow } from '../../store/rows.js';
import { getAttachByHash } from '../../store/attachments.js';
import { midTaken } from '../../store/channel-import.js';
import { HttpError } from '../../http/errors.js';
import { fromAclString, randomToken, toAclString } from '../../util/ids.js';
import { parseDateParam, toDbDate } from '../../util/time.js';
import type { AccessLists } from '../acl.js';
import { cleanFolderName, storeAttachment } from '../attachments.js';
import { ImageTooLarge, ImageTooSlow } from '../images.js';
import { createPhoto } from '../photos.js';
import type { IdentityMap } from './identities.js';
import { num, SourceError, str, type Json, type NativeClient } from './native-client.js';
import type { Counter, SkipList } from './progress.js';

/** Bytes asked for per filedata call. */
export const DEFAULT_CHUNK_BYTES = 1024 * 1024;

const HEX64 = /^[0-9a-f]{64}$/;
const PROFILE_USAGE = 1;

const mb = (bytes: number) => `${Math.round((bytes / 1048576) * 10) / 10} MB`;

/** A file that cannot be imported; the reason goes into the summary and the import goes on. */
class FileSkipped extends Error {}

export interface FilesContext {
  hub: Hub;
  channel: ChannelRow;
  client: NativeClient;
  ids: IdentityMap;
  groups: ReadonlyMap<string, string>;
  skips: SkipList;
  signal?: AbortSignal;
  chunkBytes: number;
  files: Counter;
  bytes: Counter;
  onProgress: (message: string) => void;
  /** Filled in: source file hash → hash here. */
  fileMap: Map<string, string>;
  /** Filled in: source folder hash → the album its photos are in here. */
  albumMap: Map<string, string>;
  /** Imports a photo's conversation (its comments and likes, in the backup form). */
  importConversation: (items: Json[]) => void;
}

export interface FilesResult {
  files: number;
  photos: number;
  bytes: number;
}

interface PhotoInfo {
  album: string;
  title: string;
  description: string;
  usage: number;
  /** The smallest scale there is (the largest number): enough to fetch the photo's items. */
  smallest: number;
}

function photoInfo(listing: Json[]): Map<string, PhotoInfo> {
  const out = new Map<string, PhotoInfo>();
  for (const p of listing) {
    const id = str(p.resource_id);
    const scale = num(p.imgscale);
    const known = out.get(id);
    if (known) known.smallest = Math.max(known.smallest, scale);
    else out.set(id, { album: str(p.album), title: str(p.title), description: str(p.description), usage: num(p.photo_usage), smallest: scale });
  }
  return out;
}

/**
 * The hash a source file gets here: the source's own when it is a Hearth hash (64 hex) that no
 * file here has, else one derived from it for this channel. Either way the same on every run,
 * which is how a resumed import knows what it has.
 */
function targetHash(hub: Hub, channel: ChannelRow, source: string): { hash: string; exists: boolean } {
  const derived = createHash('sha256').update(`${channel.channel_hash}\n${source}`).digest('hex');
  for (const h of [source, derived]) if (getAttachByHash(hub.db, h)?.uid === channel.channel_id) return { hash: h, exists: true };
  return { hash: HEX64.test(source) && !getAttachByHash(hub.db, source) ? source : derived, exists: false };
}

function date(v: unknown): string | undefined {
  const d = parseDateParam(str(v));
  return d ? toDbDate(d) : undefined;
}

/** Downloads a file through filedata, chunk by chunk, checking every chunk and the whole size. */
async function download(ctx: FilesContext, f: Json, path: string): Promise<void> {
  const hash = str(f.hash);
  const size = num(f.filesize);
  const fh = await open(path, 'wx');
  try {
    for (let start = 0; start < size; ) {
      ctx.signal?.throwIfAborted();
      const asked = Math.min(ctx.chunkBytes, size - start);
      const { attach, data } = await ctx.client.filedata(hash, start, asked);
      if (num(attach.filesize) !== size) throw new FileSkipped('it changed on the source during the import');
      if (num(attach.start) !== start || num(attach.length) !== data.length || data.length > asked) throw new FileSkipped('the source sent a chunk that does not match what was asked');
      if (!data.length) throw new FileSkipped('the source sent fewer bytes than the file has');
      await fh.write(data, 0, data.length, start);
      start += data.length;
      ctx.bytes.done += data.length;
      ctx.onProgress(`${str(f.filename)}: ${start} of ${size} bytes`);
    }
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** The folder names from the root to a source folder. */
function folderPath(folders: Map<string, Json>, hash: string): string[] {
  const names: string[] = [];
  for (let h = hash, depth = 0; h && depth < 64; depth++) {
    const f = folders.get(h);
    if (!f) break;
    names.unshift(str(f.filename));
    h = str(f.folder);
  }
  return names;
}

function mappedAcl(ctx: FilesContext, f: Json): AccessLists {
  const groups = (acl: string) => toAclString(fromAclString(acl).map((g) => ctx.groups.get(g) ?? g));
  return { allow_cid: ctx.ids.aclOfIdentities(str(f.allow_cid)), allow_gid: groups(str(f.allow_gid)), deny_cid: ctx.ids.aclOfIdentities(str(f.deny_cid)), deny_gid: groups(str(f.deny_gid)) };
}

/**
 * Every file and photo of the source channel, in its folders and albums: bytes fetched through
 * filedata and checked, photos' scales made here from the original, each photo with its item
 * (the source's message id, so its comments and likes find it). One file at a time, each with its
 * record or not at all; files already here are skipped.
 */
export async function importFiles(ctx: FilesContext): Promise<FilesResult> {
  const { hub, channel } = ctx;
  const listing = await ctx.client.files();
  const photos = photoInfo(await ctx.client.photos());
  const folders = new Map(listing.filter((f) => num(f.is_dir)).map((f) => [str(f.hash), f]));
  const files = listing.filter((f) => !num(f.is_dir) && str(f.hash));
  ctx.files.total = files.length;
  ctx.bytes.total = files.reduce((n, f) => n + num(f.filesize), 0);
  ctx.onProgress(`${files.length} files and photos to fetch`);
  const result: FilesResult = { files: 0, photos: 0, bytes: 0 };

  for (const f of files) {
    ctx.signal?.throwIfAborted();
    const source = str(f.hash);
    const name = str(f.filename) || source;
    const size = num(f.filesize);
    const photo = num(f.is_photo) ? photos.get(source) : undefined;
    if (photo) photo.album = cleanFolderName(photo.album);
    if (photo && str(f.folder)) ctx.albumMap.set(str(f.folder), photo.album);
    const target = targetHash(hub, channel, source);
    ctx.fileMap.set(source, target.hash);
    const done = (reason?: string) => {
      if (reason) ctx.skips.add(reason, name);
      ctx.files.done++;
      ctx.onProgress(name);
    };
    if (target.exists) {
      ctx.bytes.done += size;
      done('already imported');
      continue;
    }
    if (photo?.usage === PROFILE_USAGE) {
      ctx.bytes.done += size;
      done('a profile photo (the current one became the channel\'s photo)');
      continue;
    }
    // The limits of an upload: the size of one file, and the room for files in transit.
    if (!Number.isSafeInteger(size) || size < 0 || size > hub.limits.maxUploadBytes) {
      ctx.bytes.done += size;
      done(`larger than this hub takes for a file (${mb(hub.limits.maxUploadBytes)})`);
      continue;
    }
    if (!hub.tmpSpace.reserve(size)) {
      ctx.bytes.done += size;
      done(`no room for it among the files in transit on this hub right now (${mb(hub.limits.maxTmpBytes)}): run the import again later`);
      continue;
    }
    const path = join(hub.dataDir, 'tmp', `import-${randomToken()}`);
    const bytesBefore = ctx.bytes.done;
    try {
      await download(ctx, f, path);
      const acl = mappedAcl(ctx, f);
      const created = date(f.created);
      let stored = false;
      if (photo) {
        // The photo's item and its conversation (comments, likes) come with the photo.
        const view = await ctx.client.photo(source, photo.smallest);
        const items = view?.item ?? [];
        const photoItem = items.find((i) => str(i.resource_type) === 'photo') ?? items[0];
        const mid = photoItem ? str(photoItem.message_id) : '';
        try {
          await createPhoto(hub, channel, { filepath: path, originalFilename: name, mimetype: str(f.filetype) || null }, {
            album: photo.album, title: photo.title, description: photo.description, acl, hash: target.hash, created,
            messageId: mid && !midTaken(hub.db, mid) ? mid : undefined,
          });
          stored = true;
          result.photos++;
          ctx.importConversation(items.filter((i) => i !== photoItem));
        } catch (err) {
          if (err instanceof ImageTooLarge || err instanceof ImageTooSlow) throw new FileSkipped(err.message);
          // Not an image after all (or one Hearth cannot read): kept as a file.
          if (!(err instanceof HttpError && err.status === 400)) throw err;
        }
      }
      if (!stored) {
        await storeAttachment(hub, channel, { filepath: path, originalFilename: name, mimetype: str(f.filetype) || null }, {
          folderPath: folderPath(folders, str(f.folder)), acl, hash: target.hash, created,
        });
        result.files++;
      }
      result.bytes += size;
      done();
    } catch (err) {
      ctx.bytes.done = bytesBefore + size;
      if (err instanceof FileSkipped) done(err.message);
      else if (err instanceof SourceError && /no file/.test(err.message)) done('it is gone from the source');
      else throw err;
    } finally {
      await rm(path, { force: true });
      hub.tmpSpace.release(size);
    }
  }
  return result;
}
