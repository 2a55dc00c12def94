import type { ApiRoute } from '../../../http/api.js';
import { mentionsTimeline } from '../../../store/item-timelines.js';
import { CONTENT_VERBS } from '../../../services/verbs.js';
import { timelinePage } from '../params.js';
import { TIMELINE_FORMATS, timelineReply } from '../status-replies.js';

/** statuses/mentions: statuses mentioning the caller and answers to what the caller wrote. */
export const mentionsRoute: ApiRoute = {
  path: 'statuses/mentions',
  methods: '*',
  auth: 'user',
  formats: TIMELINE_FORMATS,
  handler(req) {
    const me = req.user().channel;
    const items = mentionsTimeline(req.hub.db, me.channel_hash, CONTENT_VERBS, timelinePage(req.params));
    return timelineReply(req, items, `Mentions of ${me.channel_name}`);
  },
};
