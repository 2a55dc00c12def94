import type { ApiRoute } from '../../../../http/api.js';
import { badRequest } from '../../../../http/errors.js';
import { albumResources } from '../../../../store/photos.js';
import { postsShowingPhotos } from '../../../../services/compat/photo-posts.js';
import { timelinePage } from '../../params.js';
import { TIMELINE_FORMATS, timelineReply } from '../../status-replies.js';

/** ext/photoalbum/posts: the statuses showing a photo of one of the caller's albums (asked before deleting it). */
export const extPhotoalbumPosts: ApiRoute = {
  path: 'ext/photoalbum/posts',
  methods: ['GET'],
  auth: 'user',
  formats: TIMELINE_FORMATS,
  handler(req) {
    const channel = req.user().channel;
    const album = req.params.str('album')?.trim();
    if (!album) throw badRequest('no albumname specified');
    const resources = albumResources(req.hub.db, channel.channel_id, album);
    if (!resources.length) throw badRequest('album not available');
    return timelineReply(req, postsShowingPhotos(req.hub, channel, resources, timelinePage(req.params)), `Posts showing photos of ${album}`);
  },
};
