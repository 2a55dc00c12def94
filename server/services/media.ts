import type { Hub } from '../hub-context.js';
import type { AttachRow, ChannelRow, PhotoRow } from '../store/rows.js';
import { ATTACH_PENDING, getAttachByHash } from '../store/attachments.js';
import { getPhotoById, getPhotoScales } from '../store/photos.js';
import { commitWithFiles } from '../files/store.js';
import { badRequest } from '../http/errors.js';
import { phpUrlencode } from '../util/urlencode.js';
import { toAclString } from '../util/ids.js';
import { stageAttachment, type FileSource, type StagedAttachment } from './attachments.js';
import { bbcodeLabel, photoBbcode, photoUrls, setPhotoAcl, stagePhoto, type StagedPhoto } from './photos.js';
import { ImageTooLarge, inspectImage } from './images.js';
import type { AccessLists } from './acl.js';

/** An entry of item.attach (JSON array) describing a file attached to a post. */
export interface AttachEntry {
  href: string;
  length: number;
  type: string;
  title: string;
  revision: number;
}

/** A file stored for a post. */
export interface PostMedia {
  attach: AttachRow;
  /** Scale 0 of the photo, when the file is an image. */
  photo?: PhotoRow;
  /** BBCode to prepend to the post body (a linked image, or a link to the file). */
  bbcode: string;
  /** The item.attach entry for it. */
  attachEntry: AttachEntry;
}

function attachEntry(hub: Hub, a: AttachRow): AttachEntry {
  return { href: `${hub.baseUrl}/attach/${a.hash}`, length: a.filesize, type: a.filetype, title: phpUrlencode(a.filename), revision: a.revision };
}

function describe(hub: Hub, channel: ChannelRow, attach: AttachRow, photos: PhotoRow[]): PostMedia {
  const photo = photos.find((p) => p.imgscale === 0) ?? photos[0];
  const bbcode = photo
    ? photoBbcode(hub, channel.channel_address, photo, photos.map((p) => p.imgscale))
    : `[url=${hub.baseUrl}/attach/${attach.hash}]${bbcodeLabel(attach.filename)}[/url]`;
  return { attach, photo, bbcode, attachEntry: attachEntry(hub, attach) };
}

type Staged = { keys: string[]; commit(): PostMedia };

/**
 * Images become photos (scales 0–3 and a hidden item); anything else, including images that cannot
 * be decoded, a plain file. Both go to `album` (a top-level folder; '' none) or else the month's.
 */
async function stageOne(hub: Hub, channel: ChannelRow, file: FileSource, acl: AccessLists, album?: string): Promise<Staged> {
  // An image too large to process is refused, not kept as a file: the post would show a broken picture.
  const isImage = await inspectImage(file.filepath).then(
    () => true,
    (err) => {
      if (err instanceof ImageTooLarge) throw err;
      return false;
    },
  );
  if (isImage) {
    const p: StagedPhoto = await stagePhoto(hub, channel, file, { acl, album });
    return { keys: p.keys, commit: () => { const r = p.commit(); return describe(hub, channel, r.attach, r.photos); } };
  }
  const a: StagedAttachment = await stageAttachment(hub, channel, file, { acl, folder: album });
  return { keys: [a.key], commit: () => describe(hub, channel, a.commit(), []) };
}

/**
 * Stores the files uploaded with a post (item/update `media`, statuses/update_with_media) with the
 * post's audience, in `album` when given (else the month's), then runs `create` with them inside
 * the same database transaction: the post, the file records and the photos are written together or
 * not at all (the stored files are removed again when anything fails). `create` typically prepends
 * each media's bbcode to the body, passes the attachEntry list as item.attach, and calls createItem.
 */
export async function withPostMedia<T>(hub: Hub, channel: ChannelRow, files: FileSource[], acl: AccessLists, create: (media: PostMedia[]) => T, album?: string): Promise<T> {
  const staged: Staged[] = [];
  try {
    for (const f of files) staged.push(await stageOne(hub, channel, f, acl, album));
  } catch (err) {
    await Promise.all(staged.flatMap((s) => s.keys).map((k) => hub.files.remove(k)));
    throw err;
  }
  return commitWithFiles(hub.files, staged.flatMap((s) => s.keys), () =>
    hub.db.transaction(() => create(staged.map((s) => s.commit())))(),
  );
}

/**
 * The body of a post with its media's BBCode in front, one per line, whatever the body's markup:
 * Hubzilla prepends uploads so, and the Markdown and plain-text renderers show these lines
 * (content/markup.ts).
 */
export function bodyWithMedia(body: string, media: PostMedia[]): string {
  if (!media.length) return body;
  return media.map((m) => m.bbcode).join('\n') + (body ? `\n${body}` : '');
}

/** item.attach JSON for these media ('' when none). */
export function itemAttachJson(media: PostMedia[]): string {
  return media.length ? JSON.stringify(media.map((m) => m.attachEntry)) : '';
}

export interface UploadedMedia extends PostMedia {
  photo: PhotoRow;
  /** Number for media_ids: the id of the photo's scale 0 row. */
  mediaId: number;
  /** URL of the preview scale (2). */
  previewUrl: string;
}

/**
 * media/upload: stores an image as a photo of the channel that no post uses yet. It is private to
 * the channel until a post claims it (claimMedia), which gives it the post's audience. 400 when
 * the upload is not a decodable image. `mediaId` is the id reserved for it by a chunked upload.
 */
export async function uploadMedia(hub: Hub, channel: ChannelRow, file: FileSource, opts: { mediaId?: number } = {}): Promise<UploadedMedia> {
  const privateAcl: AccessLists = { allow_cid: toAclString([channel.channel_hash]), allow_gid: '', deny_cid: '', deny_gid: '' };
  const staged = await stagePhoto(hub, channel, file, { acl: privateAcl, pending: true, scaleZeroId: opts.mediaId });
  const record = await commitWithFiles(hub.files, staged.keys, () => hub.db.transaction(() => staged.commit())());
  const photo = record.photos.find((p) => p.imgscale === 0)!;
  return {
    ...describe(hub, channel, record.attach, record.photos),
    photo,
    mediaId: photo.id,
    previewUrl: photoUrls(hub, channel.channel_address, photo.resource_id, photo.mimetype).scale(2),
  };
}

/**
 * statuses/update `media_ids`: the photos uploaded earlier with media/upload, by media id (the
 * photo row id of scale 0), for a post with this audience. A photo still waiting for its post
 * takes the post's audience; one already used by another post keeps its own. 400 for ids that
 * are not this channel's uploads. Call it inside the post's transaction so that a failed post
 * leaves the uploads untouched.
 */
export function claimMedia(hub: Hub, channel: ChannelRow, mediaIds: number[], acl: AccessLists): PostMedia[] {
  return mediaIds.map((id) => {
    const row = getPhotoById(hub.db, id);
    if (!row || row.uid !== channel.channel_id || row.imgscale !== 0) throw badRequest(`media_ids: unknown media id ${id}`);
    const attach = getAttachByHash(hub.db, row.resource_id);
    if (!attach) throw badRequest(`media_ids: unknown media id ${id}`);
    if (attach.flags & ATTACH_PENDING) setPhotoAcl(hub, channel, row.resource_id, acl);
    return describe(hub, channel, getAttachByHash(hub.db, row.resource_id)!, getPhotoScales(hub.db, row.resource_id));
  });
}
