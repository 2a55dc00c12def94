import type { ApiRoute } from '../../http/api.js';
import { listPhotoRows } from '../../store/photos.js';
import { photoListing } from '../../serializers/native/photo.js';
import { photoUrls } from '../../services/photos.js';

/** photos: metadata of the channel's photos, one entry per scale, optionally of one album ('/' is the root album). */
export const photos: ApiRoute = {
  path: 'photos',
  methods: ['GET', 'POST'],
  auth: 'user',
  handler({ hub, params, user }) {
    const channel = user().channel;
    const album = params.str('album');
    const rows = listPhotoRows(hub.db, channel.channel_id, album === undefined ? undefined : album === '/' ? '' : album);
    return {
      success: true,
      photos: rows.map((r) => photoListing(r, photoUrls(hub, channel.channel_address, r.resource_id, r.mimetype).scale(r.imgscale))),
    };
  },
};
