import type { ApiRoute } from '../../../http/api.js';
import { badRequest } from '../../../http/errors.js';
import { photoReply } from './photo-reply.js';

/** ext/photo: a photo (photo_id = resource id) with the URL of every scale, or with scale, that scale's data. */
export const extPhoto: ApiRoute = {
  path: 'ext/photo',
  methods: '*',
  auth: 'user',
  handler(req) {
    const id = req.params.str('photo_id')?.trim();
    if (!id) throw badRequest('No photo id.');
    return photoReply(req, id, 'photo', req.params.int('scale', { min: 0, max: 9 }));
  },
};
