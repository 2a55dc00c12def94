import type { ApiRoute } from '../../http/api.js';
import { starredTimeline } from '../../store/item-timelines.js';
import { CONTENT_VERBS } from '../../services/verbs.js';
import { timelinePage } from './params.js';
import { TIMELINE_FORMATS, timelineReply } from './status-replies.js';

/** favorites: the caller's starred statuses. Favorites are private: asking for someone's gives []. */
export const favoritesRoute: ApiRoute = {
  path: 'favorites',
  methods: '*',
  auth: 'user',
  formats: TIMELINE_FORMATS,
  handler(req) {
    const me = req.user().channel;
    const title = `Favorites of ${me.channel_name}`;
    if (req.params.str('user_id')?.trim() || req.params.str('screen_name')?.trim()) return timelineReply(req, [], title);
    const items = starredTimeline(req.hub.db, me.channel_id, me.channel_hash, CONTENT_VERBS, timelinePage(req.params));
    return timelineReply(req, items, title);
  },
};
