import { stat } from 'node:fs/promises';
import type { Hub } from '../hub-context.js';
import type { AttachRow, ChannelRow, ItemRow, PhotoRow } from '../store/rows.js';
import { ATTACH_PENDING, deleteAttach, getAttachByHash, updateAttach } from '../store/attachments.js';
import {
  albumResources, deletePhotoResource, demoteProfilePhotos, getPhotoItem, getPhotoScales, insertPhoto, PHOTO_NORMAL, PHOTO_PROFILE,
  rememberDeletedPhoto, setProfilePhotoUrls, updatePhotoResource, updatePhotoScale, type PhotoUpdate,
} from '../store/photos.js';
import { markItemDeleted, updateItem } from '../store/items.js';
import { getXchan, getXchansByHash } from '../store/xchans.js';
import { renderBody } from '../content/render.js';
import { fromAclString, uuid } from '../util/ids.js';
import { commitWithFiles } from '../files/store.js';
import { chooseFiletype, imageExtension, sniffFileType } from '../files/filetype.js';
import { badRequest, notFound } from '../http/errors.js';
import { nowDb } from '../util/time.js';
import { cleanFolderName, monthFolder, moveAttachment, pickAcl, removeFolderIfEmpty, setAttachmentAcl, stageAttachment, type FileSource } from './attachments.js';
import { inspectImage, PHOTO_SCALES, PROFILE_SCALES, renderScale, type ImageInfo, type RenderedScale } from './images.js';
import { createItem, editItem } from './items.js';
import { updatePostsShowing } from './item-html.js';
import { isPublicAcl, PUBLIC_ACL, type AccessLists } from './acl.js';
import { OBJ } from './verbs.js';
import { emitProfileChange } from './profile-events.js';

export const PROFILE_ALBUM = 'Profile Photos';

/** ActivityStreams' name for everyone. */
const ACTIVITY_PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

export interface PhotoOptions {
  /** Album (a top-level folder); default the current month (YYYY-MM); '' is the root album. */
  album?: string;
  title?: string;
  description?: string;
  acl?: AccessLists;
  /** Scales to store; default 0–3. */
  scales?: number[];
  /** A profile photo (photo_usage 1, profile 1). */
  profile?: boolean;
  /** Uploaded for a post that is not written yet (media/upload): the audience is applied when it is. */
  pending?: boolean;
  /** The photo's resource id (its file's hash) and when it was taken in; an import keeps the source's. */
  hash?: string;
  created?: string;
  /** The message id of the photo's item; an import keeps the source's so that its comments find it. */
  messageId?: string;
  /** Id for the full-size scale, reserved beforehand (reservePhotoId): the media id of a chunked upload. */
  scaleZeroId?: number;
}

export interface PhotoRecord {
  attach: AttachRow;
  /** One row per scale, smallest scale number first. */
  photos: PhotoRow[];
  /** The hidden item through which the photo is liked and commented. */
  item: ItemRow;
}

/** A photo whose files are in the store and whose rows are not written yet. */
export interface StagedPhoto {
  readonly keys: string[];
  readonly resourceId: string;
  readonly info: ImageInfo;
  /** Writes the file record, the photo rows and the photo item. Call inside the transaction of the write it belongs to. */
  commit(): PhotoRecord;
}

/** URLs of a photo as the web routes serve them. */
export function photoUrls(hub: Hub, nick: string, resourceId: string, mimetype: string) {
  return {
    page: `${hub.baseUrl}/photos/${nick}/image/${resourceId}`,
    scale: (scale: number) => `${hub.baseUrl}/photo/${resourceId}-${scale}.${imageExtension(mimetype)}`,
  };
}

export function albumUrl(hub: Hub, nick: string, album: string): string {
  return `${hub.baseUrl}/photos/${nick}/album/${album ? Buffer.from(album, 'utf8').toString('hex') : ''}`;
}

/** An album is a folder, its name one path segment: a name with "/" or "\\" is refused rather than changed. */
export function albumName(name: string): string {
  if (/[/\\]/.test(name)) throw badRequest('An album name cannot contain “/” or “\\”');
  return cleanFolderName(name);
}

/** BBCode text cannot hold bracket pairs safely; labels lose them. */
export function bbcodeLabel(s: string): string {
  return s.replace(/[[\]]/g, '');
}

/** The BBCode that shows a photo linked to its page (scale 2, or the first scale there is). */
export function photoBbcode(hub: Hub, nick: string, photo: Pick<PhotoRow, 'resource_id' | 'mimetype' | 'filename'>, scales: number[]): string {
  const urls = photoUrls(hub, nick, photo.resource_id, photo.mimetype);
  const shown = scales.includes(2) ? 2 : scales[0]!;
  return `[zrl=${urls.page}][zmg=${urls.scale(shown)}]${bbcodeLabel(photo.filename)}[/zmg][/zrl]`;
}

function ownPhoto(hub: Hub, channel: ChannelRow, resourceId: string): PhotoRow[] {
  const rows = getPhotoScales(hub.db, resourceId);
  if (!rows.length || rows[0]!.uid !== channel.channel_id) throw notFound('photo not found');
  return rows;
}

async function storeScales(hub: Hub, path: string, info: ImageInfo, scales: number[], keys: string[]): Promise<(RenderedScale & { key: string })[]> {
  const out: (RenderedScale & { key: string })[] = [];
  for (const scale of scales) {
    const { key, result } = await hub.files.putWritten((dest) => renderScale(path, info, scale, dest));
    keys.push(key);
    out.push({ ...result, key });
  }
  return out;
}

async function removeKeys(hub: Hub, keys: string[]): Promise<void> {
  await Promise.all(keys.map((k) => hub.files.remove(k)));
}

/**
 * Decodes an upload (400 unless it is a decodable image), stores its scales and the original file,
 * and prepares the rows. Nothing is in the database until commit().
 */
export async function stagePhoto(hub: Hub, channel: ChannelRow, file: FileSource, opts: PhotoOptions = {}): Promise<StagedPhoto> {
  const info = await inspectImage(file.filepath);
  const scales = opts.scales ?? PHOTO_SCALES;
  const keys: string[] = [];
  const acl = pickAcl(opts.acl ?? PUBLIC_ACL);
  const album = opts.album !== undefined ? albumName(opts.album) : cleanFolderName(monthFolder(channel));
  let rendered: (RenderedScale & { key: string })[];
  let attach: Awaited<ReturnType<typeof stageAttachment>>;
  try {
    rendered = await storeScales(hub, file.filepath, info, scales, keys);
    const filetype = chooseFiletype(await sniffFileType(file.filepath), file.mimetype, file.originalFilename ?? '');
    attach = await stageAttachment(hub, channel, file, { acl, folder: album, isPhoto: true, flags: opts.pending ? ATTACH_PENDING : 0, filetype, hash: opts.hash, created: opts.created });
    keys.push(attach.key);
  } catch (err) {
    await removeKeys(hub, keys);
    throw err;
  }
  return {
    keys,
    resourceId: attach.hash,
    info,
    commit() {
      const attachRow = attach.commit();
      const now = opts.created ?? nowDb();
      const usage = opts.profile ? PHOTO_PROFILE : PHOTO_NORMAL;
      const photos = rendered.map((r) =>
        insertPhoto(hub.db, {
          aid: channel.channel_account_id, uid: channel.channel_id, xchan: '', resource_id: attachRow.hash, created: now, edited: now,
          expires: '0001-01-01 00:00:00', title: opts.title ?? '', description: opts.description ?? '', album, filename: attachRow.filename,
          mimetype: r.mimetype, height: r.height, width: r.width, filesize: r.size, content: hub.files.relativePath(r.key),
          imgscale: r.scale, photo_usage: usage, profile: opts.profile ? 1 : 0, is_nsfw: 0, os_storage: 1, os_path: attachRow.os_path,
          display_path: attachRow.display_path, photo_flags: 0, ...acl,
        }, r.scale === 0 ? opts.scaleZeroId : undefined),
      );
      const item = createPhotoItem(hub, channel, photos, acl, { created: opts.created, messageId: opts.messageId });
      return { attach: attachRow, photos, item };
    },
  };
}

function photoItemBody(hub: Hub, channel: ChannelRow, photos: Pick<PhotoRow, 'resource_id' | 'mimetype' | 'filename' | 'description' | 'imgscale'>[]): string {
  const first = photos[0]!;
  return photoBbcode(hub, channel.channel_address, first, photos.map((p) => p.imgscale)) + (first.description ? `\n${first.description}` : '');
}

/** An ISO 8601 UTC time (2026-11-23T23:25:19Z) of a database datetime. */
function isoTime(dbDate: string): string {
  return `${dbDate.replace(' ', 'T')}Z`;
}

/**
 * Who a photo is addressed to, as Hubzilla writes it into the photo's activity object: the public
 * and the channel's followers, or the privacy groups (<base>/lists/<group hash>) and channels the
 * photo is for.
 */
function photoAudience(hub: Hub, channel: ChannelRow, acl: AccessLists): { to: string[]; cc?: string[] } {
  if (isPublicAcl(acl)) return { to: [ACTIVITY_PUBLIC], cc: [`${hub.baseUrl}/followers/${channel.channel_address}`] };
  const people = getXchansByHash(hub.db, fromAclString(acl.allow_cid));
  return {
    to: [
      ...fromAclString(acl.allow_gid).map((g) => `${hub.baseUrl}/lists/${g}`),
      ...fromAclString(acl.allow_cid).flatMap((h) => people.get(h)?.xchan_url || []),
    ],
  };
}

/**
 * The activity object of a photo's item (obj), with the fields Hubzilla fills: its scales as links,
 * times, author, the item's uuid as diaspora:guid, the item's text as source and as HTML, and its
 * audience.
 */
function photoObject(hub: Hub, channel: ChannelRow, photos: PhotoRow[], acl: AccessLists, body: string, itemUuid: string): string {
  const first = photos[0]!;
  const urls = photoUrls(hub, channel.channel_address, first.resource_id, first.mimetype);
  return JSON.stringify({
    type: 'Image', id: urls.page, 'diaspora:guid': itemUuid, name: first.title || first.filename, summary: first.description,
    published: isoTime(first.created), updated: isoTime(first.edited), attributedTo: getXchan(hub.db, channel.channel_hash)?.xchan_url ?? '',
    url: photos.map((p) => ({ type: 'Link', mediaType: p.mimetype, href: urls.scale(p.imgscale), width: p.width, height: p.height })),
    source: { content: body, mediaType: 'text/bbcode' },
    content: renderBody(body, 'text/bbcode'),
    ...photoAudience(hub, channel, acl),
  });
}

function createPhotoItem(hub: Hub, channel: ChannelRow, photos: PhotoRow[], acl: AccessLists, from: { created?: string; messageId?: string } = {}): ItemRow {
  const first = photos[0]!;
  const nick = channel.channel_address;
  const body = photoItemBody(hub, channel, photos);
  const itemUuid = uuid();
  return createItem(hub, channel, {
    uuid: itemUuid,
    body,
    title: first.title.slice(0, 191),
    hidden: true,
    resourceType: 'photo',
    resourceId: first.resource_id,
    objType: OBJ.PHOTO,
    obj: photoObject(hub, channel, photos, acl, body, itemUuid),
    tgtType: 'orderedCollection',
    target: JSON.stringify({ type: 'orderedCollection', name: first.album || '/', id: albumUrl(hub, nick, first.album) }),
    acl,
    ...from,
  });
}

/** Stores an uploaded image as a photo of the channel (scales, file record, hidden item), all or nothing. */
export async function createPhoto(hub: Hub, channel: ChannelRow, file: FileSource, opts: PhotoOptions = {}): Promise<PhotoRecord> {
  const staged = await stagePhoto(hub, channel, file, opts);
  return commitWithFiles(hub.files, staged.keys, () => hub.db.transaction(() => staged.commit())());
}

/**
 * Makes an upload the channel's profile photo: scales 4–6 (square), public, in the album
 * "Profile Photos"; the default profile and the channel's identity point at it.
 */
export async function setProfilePhoto(hub: Hub, channel: ChannelRow, file: FileSource): Promise<PhotoRecord> {
  const staged = await stagePhoto(hub, channel, file, { album: PROFILE_ALBUM, scales: PROFILE_SCALES, profile: true, acl: PUBLIC_ACL });
  return commitWithFiles(hub.files, staged.keys, () =>
    hub.db.transaction(() => {
      const record = staged.commit();
      const p = record.photos[0]!;
      const ext = imageExtension(p.mimetype);
      demoteProfilePhotos(hub.db, channel.channel_id, p.resource_id);
      setProfilePhotoUrls(hub.db, channel.channel_id, channel.channel_hash, {
        photo: `${hub.baseUrl}/photo/${p.resource_id}-4.${ext}`,
        thumb: `${hub.baseUrl}/photo/${p.resource_id}-5.${ext}`,
        large: `${hub.baseUrl}/photo/profile/l/${channel.channel_id}`,
        medium: `${hub.baseUrl}/photo/profile/m/${channel.channel_id}`,
        small: `${hub.baseUrl}/photo/profile/s/${channel.channel_id}`,
        mimetype: p.mimetype,
        when: nowDb(),
      });
      emitProfileChange(hub, channel);
      return record;
    })(),
  );
}

export interface PhotoChanges {
  album?: string;
  title?: string;
  description?: string;
  acl?: AccessLists;
}

/**
 * Changes a photo's album, title, description or audience (its file record and item follow).
 * Returns whether anything changed; 404 for a photo that is not the channel's.
 */
export function updatePhotoMeta(hub: Hub, channel: ChannelRow, resourceId: string, changes: PhotoChanges): boolean {
  return hub.db.transaction(() => {
    const rows = ownPhoto(hub, channel, resourceId);
    const first = rows[0]!;
    const fields: PhotoUpdate = {};
    if (changes.title !== undefined && changes.title !== first.title) fields.title = changes.title;
    if (changes.description !== undefined && changes.description !== first.description) fields.description = changes.description;
    const acl = changes.acl && pickAcl(changes.acl);
    const aclChanged = acl !== undefined && (['allow_cid', 'allow_gid', 'deny_cid', 'deny_gid'] as const).some((k) => acl[k] !== first[k]);
    if (acl && aclChanged) Object.assign(fields, acl);
    const album = changes.album !== undefined ? albumName(changes.album) : undefined;
    const attach = getAttachByHash(hub.db, resourceId);
    if (album !== undefined && album !== first.album) {
      fields.album = album;
      if (attach) {
        const moved = moveAttachment(hub, channel, attach, album);
        Object.assign(fields, { filename: moved.filename, os_path: moved.os_path, display_path: moved.display_path });
      }
    }
    if (!Object.keys(fields).length) return false;
    updatePhotoResource(hub.db, resourceId, { ...fields, edited: nowDb() });
    if (acl && aclChanged && attach) setAttachmentAcl(hub, attach, acl);
    const item = getPhotoItem(hub.db, channel.channel_id, resourceId);
    if (item && !item.item_deleted) {
      const updated = getPhotoScales(hub.db, resourceId);
      const body = photoItemBody(hub, channel, updated);
      if (aclChanged || fields.description !== undefined) editItem(hub, channel, item.id, { body, acl: aclChanged ? acl : undefined });
      updateItem(hub.db, item.id, { obj: photoObject(hub, channel, updated, aclChanged ? acl! : pickAcl(first), body, item.uuid) });
    }
    return true;
  })();
}

/** Replaces a photo's image (every stored scale and the original file), keeping its id, album and audience. */
export async function replacePhotoImage(hub: Hub, channel: ChannelRow, resourceId: string, file: FileSource): Promise<PhotoRecord> {
  const rows = ownPhoto(hub, channel, resourceId);
  const info = await inspectImage(file.filepath);
  const keys: string[] = [];
  let rendered: (RenderedScale & { key: string })[];
  let originalKey: string;
  let filetype: string;
  let filesize: number;
  try {
    rendered = await storeScales(hub, file.filepath, info, rows.map((r) => r.imgscale), keys);
    filetype = chooseFiletype(await sniffFileType(file.filepath), file.mimetype, file.originalFilename ?? '');
    filesize = (await stat(file.filepath)).size;
    originalKey = await hub.files.putFile(file.filepath);
    keys.push(originalKey);
  } catch (err) {
    await removeKeys(hub, keys);
    throw err;
  }
  const oldKeys: string[] = [];
  const record = await commitWithFiles(hub.files, keys, () =>
    hub.db.transaction(() => {
      const current = ownPhoto(hub, channel, resourceId);
      const now = nowDb();
      for (const r of rendered) {
        const row = current.find((c) => c.imgscale === r.scale);
        if (!row) continue;
        const old = hub.files.keyOf(row.content);
        if (old) oldKeys.push(old);
        updatePhotoScale(hub.db, row.id, { content: hub.files.relativePath(r.key), width: r.width, height: r.height, filesize: r.size, mimetype: r.mimetype, edited: now });
      }
      const attach = getAttachByHash(hub.db, resourceId);
      if (attach) {
        const old = hub.files.keyOf(attach.content);
        if (old) oldKeys.push(old);
        updateAttach(hub.db, attach.id, { content: hub.files.relativePath(originalKey), filesize, filetype, revision: attach.revision + 1, edited: now });
      }
      const item = getPhotoItem(hub.db, channel.channel_id, resourceId);
      const scales = getPhotoScales(hub.db, resourceId);
      if (item) updateItem(hub.db, item.id, { obj: photoObject(hub, channel, scales, pickAcl(scales[0]!), item.body, item.uuid) });
      return { attach: getAttachByHash(hub.db, resourceId)!, photos: scales, item: item! };
    })(),
  );
  await removeKeys(hub, oldKeys);
  return record;
}

/** Removes the photo's rows and file record and marks its items deleted, in the caller's transaction; returns the keys to remove afterwards. */
function dropPhoto(hub: Hub, channel: ChannelRow, resourceId: string): string[] {
  const keys: string[] = [];
  const scales = getPhotoScales(hub.db, resourceId);
  for (const row of scales) {
    const k = hub.files.keyOf(row.content);
    if (k) keys.push(k);
  }
  const item = getPhotoItem(hub.db, channel.channel_id, resourceId);
  if (item && !item.item_deleted) markItemDeleted(hub.db, item, nowDb());
  deletePhotoResource(hub.db, resourceId);
  const attach = getAttachByHash(hub.db, resourceId);
  if (attach && attach.uid === channel.channel_id) {
    const k = hub.files.keyOf(attach.content);
    if (k) keys.push(k);
    deleteAttach(hub.db, attach.id);
    removeFolderIfEmpty(hub, channel, attach.folder);
  }
  rememberDeletedPhoto(hub.db, resourceId, channel.channel_id, scales[0]?.filename ?? '', nowDb());
  updatePostsShowing(hub.db, [resourceId]);
  return keys;
}

/** Deletes a photo of the channel: every scale, its file record, and marks its items deleted. 404 for others' photos. */
export async function deletePhoto(hub: Hub, channel: ChannelRow, resourceId: string): Promise<void> {
  const keys = hub.db.transaction(() => {
    ownPhoto(hub, channel, resourceId);
    return dropPhoto(hub, channel, resourceId);
  })();
  // Rows first, files after: a crash in between leaves orphan files, which the startup check removes.
  await removeKeys(hub, keys);
}

/** Deletes every photo of one of the channel's albums; returns how many there were. */
export async function deleteAlbum(hub: Hub, channel: ChannelRow, album: string): Promise<number> {
  const { count, keys } = hub.db.transaction(() => {
    const resources = albumResources(hub.db, channel.channel_id, album);
    return { count: resources.length, keys: resources.flatMap((r) => dropPhoto(hub, channel, r)) };
  })();
  await removeKeys(hub, keys);
  return count;
}

/** Renames one of the channel's albums (its photos move to the folder of the new name); returns how many photos moved. */
export function renameAlbum(hub: Hub, channel: ChannelRow, album: string, albumNew: string): number {
  return hub.db.transaction(() => {
    const resources = albumResources(hub.db, channel.channel_id, album);
    for (const r of resources) updatePhotoMeta(hub, channel, r, { album: albumNew });
    return resources.length;
  })();
}

/** Gives a photo (rows, file record, item) an audience and clears its pending-upload flag. */
export function setPhotoAcl(hub: Hub, channel: ChannelRow, resourceId: string, acl: AccessLists): void {
  hub.db.transaction(() => {
    updatePhotoMeta(hub, channel, resourceId, { acl });
    const attach = getAttachByHash(hub.db, resourceId);
    if (attach) setAttachmentAcl(hub, attach, acl);
  })();
}
