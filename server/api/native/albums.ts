import type { ApiRoute } from '../../http/api.js';
import { listAlbums } from '../../store/photos.js';
import { albumEntry } from '../../serializers/native/album.js';

/** albums: the channel's photo albums with their photo counts; the root album is '/'. */
export const albums: ApiRoute = {
  path: 'albums',
  methods: ['GET', 'POST'],
  auth: 'user',
  handler({ hub, user }) {
    const channel = user().channel;
    return { success: true, albums: listAlbums(hub.db, channel.channel_id).map((a) => albumEntry(hub.baseUrl, channel.channel_address, a)) };
  },
};
