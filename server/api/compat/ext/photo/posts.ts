import type { ApiRoute } from '../../../../http/api.js';
import { badRequest, notFound } from '../../../../http/errors.js';
import { getPhotoScales } from '../../../../store/photos.js';
import { postsShowingPhotos } from '../../../../services/compat/photo-posts.js';
import { timelinePage } from '../../params.js';
import { TIMELINE_FORMATS, timelineReply } from '../../status-replies.js';

/** ext/photo/posts: the statuses showing one of the caller's photos (photo_id = resource id; asked before deleting it). */
export const extPhotoPosts: ApiRoute = {
  path: 'ext/photo/posts',
  methods: ['GET'],
  auth: 'user',
  formats: TIMELINE_FORMATS,
  handler(req) {
    const channel = req.user().channel;
    const id = req.params.str('photo_id')?.trim();
    if (!id) throw badRequest('No photo id.');
    const scales = getPhotoScales(req.hub.db, id);
    if (!scales.length || scales[0]!.uid !== channel.channel_id) throw notFound('photo not found');
    return timelineReply(req, postsShowingPhotos(req.hub, channel, [id], timelinePage(req.params)), `Posts showing ${scales[0]!.filename}`);
  },
};
