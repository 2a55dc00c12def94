import type { ApiRoute } from '../../../../http/api.js';
import { badRequest } from '../../../../http/errors.js';
import { albumResources } from '../../../../store/photos.js';
import { renameAlbum } from '../../../../services/photos.js';
import { resultEnvelope } from '../../../../serializers/compat/photo.js';
import { reply } from '../../reply.js';

/** ext/photoalbum/update: renames one of the caller's albums (album → album_new). */
export const extPhotoalbumUpdate: ApiRoute = {
  path: 'ext/photoalbum/update',
  methods: ['POST', 'PUT'],
  auth: 'user',
  handler(req) {
    const channel = req.user().channel;
    const album = req.params.str('album')?.trim();
    if (!album) throw badRequest('no albumname specified');
    const albumNew = req.params.str('album_new')?.trim();
    if (!albumNew) throw badRequest('no new albumname specified');
    if (!albumResources(req.hub.db, channel.channel_id, album).length) throw badRequest('album not available');
    renameAlbum(req.hub, channel, album, albumNew);
    return reply(resultEnvelope('updated', `album \`${album}\` with all containing photos has been renamed to \`${albumNew}\`.`), 'photoalbum_update');
  },
};
