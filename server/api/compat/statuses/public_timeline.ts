import type { ApiRoute } from '../../../http/api.js';
import { publicTimeline } from '../../../store/item-timelines.js';
import { CONTENT_VERBS } from '../../../services/verbs.js';
import { timelinePage } from '../params.js';
import { TIMELINE_FORMATS, timelineReply } from '../status-replies.js';

/** statuses/public_timeline: public posts and comments created on this hub. */
export const publicTimelineRoute: ApiRoute = {
  path: 'statuses/public_timeline',
  methods: '*',
  auth: 'user',
  formats: TIMELINE_FORMATS,
  handler(req) {
    const items = publicTimeline(req.hub.db, req.user().channel.channel_hash, CONTENT_VERBS, timelinePage(req.params), true);
    return timelineReply(req, items, 'Public timeline');
  },
};
