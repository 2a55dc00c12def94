import type { ApiRoute } from '../../../../http/api.js';
import { listPhotoResources, getPhotoScales } from '../../../../store/photos.js';
import { photoUrls } from '../../../../services/photos.js';
import { compatPhotoListEntry, compatPhotoListXml } from '../../../../serializers/compat/photo.js';
import type { PhotoRow } from '../../../../store/rows.js';
import { reply } from '../../reply.js';

/** The scale lists show: 2 for ordinary photos, 5 for profile photos, else the last there is. */
function thumbScale(scales: PhotoRow[]): PhotoRow {
  return scales.find((s) => s.imgscale === 2) ?? scales.find((s) => s.imgscale === 5) ?? scales[scales.length - 1]!;
}

/** ext/photos/list: every photo of the caller with its thumbnail URL. */
export const extPhotosList: ApiRoute = {
  path: 'ext/photos/list',
  methods: '*',
  auth: 'user',
  handler(req) {
    const channel = req.user().channel;
    const entries = listPhotoResources(req.hub.db, channel.channel_id).map((row) => {
      const thumb = thumbScale(getPhotoScales(req.hub.db, row.resource_id));
      return { row, url: photoUrls(req.hub, channel.channel_address, row.resource_id, thumb.mimetype).scale(thumb.imgscale) };
    });
    if (req.format === 'xml') return reply(entries.map((e) => compatPhotoListXml(e.row, e.url)), 'photos', { itemName: 'photo' });
    return reply(entries.map((e) => compatPhotoListEntry(e.row, e.url)), 'photos', { itemName: 'photo' });
  },
};
