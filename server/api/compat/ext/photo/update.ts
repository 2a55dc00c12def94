import type { ApiRoute } from '../../../../http/api.js';
import { badRequest } from '../../../../http/errors.js';
import { getPhotoScales } from '../../../../store/photos.js';
import { replacePhotoImage, updatePhotoMeta, type PhotoChanges } from '../../../../services/photos.js';
import { resultEnvelope } from '../../../../serializers/compat/photo.js';
import { photoAclFromParams } from './acl.js';
import { photoReply } from '../photo-reply.js';
import { reply } from '../../reply.js';

/**
 * ext/photo/update: photo_id and its current album identify the photo; album_new moves it; desc,
 * title and the ACL keys change it; a new media file replaces the image (then the photo is
 * returned, else a result envelope: updated, or cancelled when nothing changed).
 */
export const extPhotoUpdate: ApiRoute = {
  path: 'ext/photo/update',
  methods: ['POST'],
  auth: 'user',
  async handler(req) {
    const channel = req.user().channel;
    const id = req.params.str('photo_id')?.trim();
    if (!id) throw badRequest('no photo_id specified');
    const album = req.params.str('album');
    if (album === undefined || !album.trim()) throw badRequest('no albumname specified');
    const rows = getPhotoScales(req.hub.db, id);
    const first = rows[0];
    if (!first || first.uid !== channel.channel_id || first.album !== album.trim()) throw badRequest('photo not available');
    const { acl, given } = photoAclFromParams(req, channel, first);
    const changes: PhotoChanges = {};
    const albumNew = req.params.str('album_new')?.trim();
    if (albumNew) changes.album = albumNew;
    if (req.params.has('desc')) changes.description = req.params.str('desc');
    if (req.params.has('title')) changes.title = req.params.str('title');
    if (given) changes.acl = acl;
    const file = req.params.file('media');
    if (file) {
      await replacePhotoImage(req.hub, channel, id, file);
      updatePhotoMeta(req.hub, channel, id, changes);
      return photoReply(req, id, 'photo_update');
    }
    const changed = updatePhotoMeta(req.hub, channel, id, changes);
    return reply(
      changed ? resultEnvelope('updated', `Image id \`${id}\` has been updated.`) : resultEnvelope('cancelled', `Nothing to update for image id \`${id}\`.`),
      'photo_update',
    );
  },
};
