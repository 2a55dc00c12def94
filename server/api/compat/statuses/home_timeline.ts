import type { ApiRequest, ApiRoute } from '../../../http/api.js';
import { homeTimeline } from '../../../store/item-timelines.js';
import { CONTENT_VERBS } from '../../../services/verbs.js';
import { timelinePage } from '../params.js';
import { TIMELINE_FORMATS, timelineReply } from '../status-replies.js';

function handler(req: ApiRequest) {
  const me = req.user().channel;
  const items = homeTimeline(req.hub.db, me.channel_id, me.channel_hash, CONTENT_VERBS, timelinePage(req.params));
  return timelineReply(req, items, `Home timeline of ${me.channel_name}`);
}

/** statuses/home_timeline: posts and comments of the channel and of those it follows. */
export const homeTimelineRoute: ApiRoute = { path: 'statuses/home_timeline', methods: '*', auth: 'user', formats: TIMELINE_FORMATS, cache: true, handler };
