import type { ApiRoute } from '../../../../http/api.js';
import { listPhotoResources } from '../../../../store/photos.js';
import { photoUrls } from '../../../../services/photos.js';
import { compatPhotoListEntry, compatPhotoListXml } from '../../../../serializers/compat/photo.js';
import { reply } from '../../reply.js';

/**
 * ext/photos/list: every photo of the caller with its thumbnail URL, oldest first (Friendica's).
 * The hub's own parameters: album (exact name) keeps one album's; album_covers=1 only each album's
 * first photo; count (default 100, at most 500) or page (from 1) ask for a page of them.
 */
export const extPhotosList: ApiRoute = {
  path: 'ext/photos/list',
  methods: '*',
  auth: 'user',
  handler(req) {
    const channel = req.user().channel;
    const paged = req.params.has('count') || req.params.has('page');
    const count = req.params.clamped('count', 100, 1, 500);
    const page = req.params.clamped('page', 1, 1, 1_000_000);
    const rows = listPhotoResources(req.hub.db, channel.channel_id, {
      album: req.params.has('album') ? (req.params.str('album') ?? '') : undefined,
      covers: req.params.bool('album_covers'),
      ...(paged ? { limit: count, offset: (page - 1) * count } : {}),
    });
    const entries = rows.map((row) => ({ row, url: photoUrls(req.hub, channel.channel_address, row.resource_id, row.thumb_mimetype).scale(row.thumb_scale) }));
    if (req.format === 'xml') return reply(entries.map((e) => compatPhotoListXml(e.row, e.url)), 'photos', { itemName: 'photo' });
    return reply(entries.map((e) => compatPhotoListEntry(e.row, e.url)), 'photos', { itemName: 'photo' });
  },
};
