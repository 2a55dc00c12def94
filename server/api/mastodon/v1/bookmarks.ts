import type { MastodonRoute } from '../admit.js';
import { likedTimeline, starredTimeline } from '../../../store/item-timelines.js';
import { CONTENT_VERBS } from '../../../services/verbs.js';
import { pageParams, readPage, statusPage } from '../common.js';

/** GET /api/v1/bookmarks: the channel's starred posts. */
export const bookmarksRoute: MastodonRoute = {
  path: 'bookmarks',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:bookmarks',
  handler(req) {
    const me = req.user().channel;
    return statusPage(req, readPage(pageParams(req), (p) => starredTimeline(req.hub.db, me.channel_id, me.channel_hash, CONTENT_VERBS, p)));
  },
};

/** GET /api/v1/favourites: the posts the channel liked. */
export const favouritesRoute: MastodonRoute = {
  path: 'favourites',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:favourites',
  handler(req) {
    const me = req.user().channel;
    return statusPage(req, readPage(pageParams(req), (p) => likedTimeline(req.hub.db, me.channel_hash, CONTENT_VERBS, p)));
  },
};
