import type { ApiRoute } from '../../../../http/api.js';
import { listPhotoResources } from '../../../../store/photos.js';
import { photoUrls } from '../../../../services/photos.js';
import { compatPhotoListEntry, compatPhotoListXml } from '../../../../serializers/compat/photo.js';
import { reply } from '../../reply.js';

/** ext/photos/list: every photo of the caller with its thumbnail URL. */
export const extPhotosList: ApiRoute = {
  path: 'ext/photos/list',
  methods: '*',
  auth: 'user',
  handler(req) {
    const channel = req.user().channel;
    const entries = listPhotoResources(req.hub.db, channel.channel_id).map((row) => ({
      row,
      url: photoUrls(req.hub, channel.channel_address, row.resource_id, row.thumb_mimetype).scale(row.thumb_scale),
    }));
    if (req.format === 'xml') return reply(entries.map((e) => compatPhotoListXml(e.row, e.url)), 'photos', { itemName: 'photo' });
    return reply(entries.map((e) => compatPhotoListEntry(e.row, e.url)), 'photos', { itemName: 'photo' });
  },
};
