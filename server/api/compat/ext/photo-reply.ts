import type { ApiRequest } from '../../../http/api.js';
import { notFound } from '../../../http/errors.js';
import { getChannel } from '../../../store/channels.js';
import { getVisiblePhotoScales } from '../../../store/photos.js';
import { photoUrls } from '../../../services/photos.js';
import { photoThread } from '../../../services/photo-view.js';
import { readStored } from '../../../services/file-access.js';
import { loadStatus, loadStatuses } from '../../../services/compat/statuses.js';
import { CONTENT_VERBS } from '../../../services/verbs.js';
import { compatPhotoJson, compatPhotoXml, type PhotoFacts } from '../../../serializers/compat/photo.js';
import { reply, type CompatReply } from '../reply.js';

const ACL_KEYS = ['allow_cid', 'allow_gid', 'deny_cid', 'deny_gid'] as const;

/**
 * A photo as ext/photo answers it (JSON or XML by the request's format), for the caller: its own
 * photos, or another channel's its ACL admits. With a scale, that scale's bytes. 404 otherwise.
 */
export async function photoReply(req: ApiRequest, resourceId: string, root: string, scale?: number): Promise<CompatReply> {
  const viewer = req.user().channel;
  const scales = getVisiblePhotoScales(req.hub.db, resourceId, viewer.channel_hash);
  if (!scales.length) throw notFound('photo not found');
  const first = scales[0]!;
  const owner = getChannel(req.hub.db, first.uid);
  const mimetypeOf = (s: number) => scales.find((r) => r.imgscale === s)?.mimetype ?? first.mimetype;
  const facts: PhotoFacts = { scales, url: (s) => photoUrls(req.hub, owner?.channel_address ?? '', resourceId, mimetypeOf(s)).scale(s) };
  if (scale !== undefined) {
    const row = scales.find((r) => r.imgscale === scale);
    if (!row) throw notFound(`photo has no scale ${scale}`);
    facts.selected = { row, data: (await readStored(req.hub, row.content)).toString('base64') };
  }
  const thread = photoThread(req.hub, viewer.channel_hash, first);
  const top = thread[0];
  if (top) {
    facts.activities = loadStatus(req.hub, viewer, top).friendica_activities;
    facts.comments = loadStatuses(req.hub, viewer, thread.filter((i) => (CONTENT_VERBS as readonly string[]).includes(i.verb)));
    facts.rightsMismatch = ACL_KEYS.some((k) => top[k] !== first[k]);
  } else {
    facts.comments = [];
    facts.rightsMismatch = false;
  }
  return reply(req.format === 'xml' ? compatPhotoXml(facts) : compatPhotoJson(facts), root, { arrayTypeKeys: ['links'] });
}
