import type { ApiRoute } from '../../../http/api.js';
import { uploadMedia } from '../../../services/media.js';
import { compatMedia } from '../../../serializers/compat/media.js';
import { badRequest } from '../../../http/errors.js';
import { reply } from '../reply.js';

/** media/upload: stores an image (multipart `media`) for a later statuses/update media_ids. */
export const mediaUploadRoute: ApiRoute = {
  path: 'media/upload',
  methods: ['POST', 'PUT'],
  auth: 'user',
  async handler(req) {
    const file = req.params.file('media');
    if (!file) throw badRequest('No media.');
    const m = await uploadMedia(req.hub, req.user().channel, { filepath: file.filepath, originalFilename: file.originalFilename, mimetype: file.mimetype });
    return reply(
      compatMedia({ id: m.mediaId, size: m.attach.filesize, width: m.photo.width, height: m.photo.height, mimetype: m.photo.mimetype, previewUrl: m.previewUrl }),
      'media',
    );
  },
};
