import type { Hub } from '../../hub-context.js';
import type { ChannelRow } from '../../store/rows.js';
import { getPhotoById } from '../../store/photos.js';
import { getChannel } from '../../store/channels.js';
import { mediaMetaOf, photosForMedia, setMediaMeta, setPhotoDescription } from '../../store/mastodon.js';
import { notFound, HttpError } from '../../http/errors.js';
import type { MediaFacts } from '../../serializers/mastodon/media.js';
import type { FileSource } from '../attachments.js';
import { uploadMedia } from '../media.js';
import { photoUrls } from '../photos.js';
import { blurhashOfImage } from '../blurhash.js';

export interface MediaChanges {
  description?: string;
  /** Mastodon's "x,y" with each in -1..1. */
  focus?: string;
}

const MAX_DESCRIPTION = 1500;

function parseFocus(raw: string | undefined): { x: number; y: number } | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const parts = raw.split(',').map((s) => Number(s.trim()));
  if (parts.length !== 2 || !parts.every((n) => Number.isFinite(n) && n >= -1 && n <= 1)) throw new HttpError(422, 'Validation failed: focus must be two numbers between -1 and 1, as "x,y"');
  return { x: parts[0]!, y: parts[1]! };
}

function checkDescription(d: string | undefined): string | undefined {
  if (d !== undefined && d.length > MAX_DESCRIPTION) throw new HttpError(422, `Validation failed: Description is too long (maximum is ${MAX_DESCRIPTION} characters)`);
  return d;
}

/** Loads what media attachments show, by media id (the scale 0 photo row id). */
export function loadMedia(hub: Hub, ids: number[]): Map<number, MediaFacts> {
  const photos = photosForMedia(hub.db, ids);
  const meta = mediaMetaOf(hub.db, ids);
  const nicks = new Map<number, string>();
  const out = new Map<number, MediaFacts>();
  for (const [id, p] of photos) {
    if (!nicks.has(p.uid)) nicks.set(p.uid, getChannel(hub.db, p.uid)?.channel_address ?? '');
    const urls = photoUrls(hub, nicks.get(p.uid)!, p.resource_id, p.mimetype);
    const m = meta.get(id);
    out.set(id, {
      id,
      url: urls.scale(0),
      previewUrl: urls.scale(2),
      width: p.width,
      height: p.height,
      smallWidth: p.small_w ?? undefined,
      smallHeight: p.small_h ?? undefined,
      description: p.description,
      blurhash: m?.blurhash || null,
      focus: { x: m?.focus_x ?? 0, y: m?.focus_y ?? 0 },
    });
  }
  return out;
}

/** POST /api/v1/media and /api/v2/media: a picture waiting for its post, with description and focus. */
export async function uploadMastodonMedia(hub: Hub, channel: ChannelRow, file: FileSource, changes: MediaChanges): Promise<MediaFacts> {
  const description = checkDescription(changes.description);
  const focus = parseFocus(changes.focus) ?? { x: 0, y: 0 };
  let hash = '';
  try {
    hash = await blurhashOfImage(file.filepath);
  } catch {
    // Not a picture sharp reads: uploadMedia refuses it with its own message.
  }
  let uploaded;
  try {
    uploaded = await uploadMedia(hub, channel, file);
  } catch (err) {
    if (err instanceof HttpError && err.status === 400) throw new HttpError(422, `Validation failed: ${err.message}`);
    throw err;
  }
  hub.db.transaction(() => {
    setMediaMeta(hub.db, { photo_id: uploaded.mediaId, focus_x: focus.x, focus_y: focus.y, blurhash: hash });
    if (description) setPhotoDescription(hub.db, uploaded.photo.resource_id, description.trim());
  })();
  return loadMedia(hub, [uploaded.mediaId]).get(uploaded.mediaId)!;
}

/** A media of the channel, 404 for anyone else's. */
export function ownMedia(hub: Hub, channel: ChannelRow, id: number): MediaFacts {
  const row = getPhotoById(hub.db, id);
  if (!row || row.uid !== channel.channel_id || row.imgscale !== 0) throw notFound('Record not found');
  return loadMedia(hub, [id]).get(id)!;
}

/** PUT /api/v1/media/:id: description and focus. */
export function updateMastodonMedia(hub: Hub, channel: ChannelRow, id: number, changes: MediaChanges): MediaFacts {
  const current = ownMedia(hub, channel, id);
  const description = checkDescription(changes.description);
  const focus = parseFocus(changes.focus);
  const row = getPhotoById(hub.db, id)!;
  hub.db.transaction(() => {
    if (description !== undefined) setPhotoDescription(hub.db, row.resource_id, description.trim());
    if (focus) setMediaMeta(hub.db, { photo_id: id, focus_x: focus.x, focus_y: focus.y, blurhash: current.blurhash ?? '' });
  })();
  return loadMedia(hub, [id]).get(id)!;
}
