import type { ApiRoute } from '../../../../http/api.js';
import { badRequest } from '../../../../http/errors.js';
import { albumResources } from '../../../../store/photos.js';
import { deleteAlbum } from '../../../../services/photos.js';
import { resultEnvelope } from '../../../../serializers/compat/photo.js';
import { reply } from '../../reply.js';

/** ext/photoalbum/delete: deletes every photo of one of the caller's albums. */
export const extPhotoalbumDelete: ApiRoute = {
  path: 'ext/photoalbum/delete',
  methods: ['POST', 'DELETE'],
  auth: 'user',
  async handler(req) {
    const channel = req.user().channel;
    const album = req.params.str('album')?.trim();
    if (!album) throw badRequest('no albumname specified');
    if (!albumResources(req.hub.db, channel.channel_id, album).length) throw badRequest('album not available');
    await deleteAlbum(req.hub, channel, album);
    return reply(resultEnvelope('deleted', `album \`${album}\` with all containing photos has been deleted.`), 'photoalbum_delete');
  },
};
