import type { ApiRoute } from '../../../../http/api.js';
import { badRequest } from '../../../../http/errors.js';
import { createPhoto } from '../../../../services/photos.js';
import { COMPAT_PHOTO_SCALES } from '../../../../services/images.js';
import { PUBLIC_ACL } from '../../../../services/acl.js';
import { photoAclFromParams } from './acl.js';
import { photoReply } from '../photo-reply.js';

/** ext/photo/create: a new photo (multipart media) in an album, scales 0–2, with desc, title and ACL. */
export const extPhotoCreate: ApiRoute = {
  path: 'ext/photo/create',
  methods: ['POST'],
  auth: 'user',
  async handler(req) {
    const channel = req.user().channel;
    const album = req.params.str('album')?.trim();
    if (!album) throw badRequest('no album name specified');
    const file = req.params.file('media');
    if (!file) throw badRequest('no media data submitted');
    const { acl } = photoAclFromParams(req, channel, PUBLIC_ACL);
    const record = await createPhoto(req.hub, channel, file, {
      album,
      title: req.params.str('title') ?? '',
      description: req.params.str('desc') ?? '',
      acl,
      scales: COMPAT_PHOTO_SCALES,
    });
    return photoReply(req, record.attach.hash, 'photo_create');
  },
};
