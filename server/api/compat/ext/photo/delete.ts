import type { ApiRoute } from '../../../../http/api.js';
import { badRequest } from '../../../../http/errors.js';
import { getPhotoScales } from '../../../../store/photos.js';
import { deletePhoto } from '../../../../services/photos.js';
import { resultEnvelope } from '../../../../serializers/compat/photo.js';
import { reply } from '../../reply.js';

/** ext/photo/delete: deletes one of the caller's photos (every scale); its items get item_deleted = 1. */
export const extPhotoDelete: ApiRoute = {
  path: 'ext/photo/delete',
  methods: ['DELETE'],
  auth: 'user',
  async handler(req) {
    const channel = req.user().channel;
    const id = req.params.str('photo_id')?.trim();
    if (!id) throw badRequest('no photo_id specified');
    const first = getPhotoScales(req.hub.db, id)[0];
    if (!first || first.uid !== channel.channel_id) throw badRequest('photo not available');
    await deletePhoto(req.hub, channel, id);
    return reply(resultEnvelope('deleted', `photo with id \`${id}\` has been deleted from server.`), 'photo_delete');
  },
};
