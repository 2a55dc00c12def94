import type { ApiRoute } from '../../../http/api.js';
import { publicTimeline } from '../../../store/item-timelines.js';
import { CONTENT_VERBS } from '../../../services/verbs.js';
import { timelinePage } from '../params.js';
import { TIMELINE_FORMATS, timelineReply } from '../status-replies.js';

/** statuses/networkpublic_timeline: every public post and comment the hub knows. */
export const networkPublicTimelineRoute: ApiRoute = {
  path: 'statuses/networkpublic_timeline',
  methods: '*',
  auth: 'user',
  formats: TIMELINE_FORMATS,
  handler(req) {
    const items = publicTimeline(req.hub.db, req.user().channel.channel_hash, CONTENT_VERBS, timelinePage(req.params), false);
    return timelineReply(req, items, 'Network public timeline');
  },
};
