import type { ApiRoute } from '../../../http/api.js';
import { authorTimeline } from '../../../store/item-timelines.js';
import { CONTENT_VERBS } from '../../../services/verbs.js';
import { screenName } from '../../../serializers/compat/user.js';
import { timelinePage } from '../params.js';
import { TIMELINE_FORMATS, timelineReply } from '../status-replies.js';
import { resolveWho } from '../who.js';

/** statuses/user_timeline: what one person (default: the caller) wrote, as far as the caller may see it. */
export const userTimelineRoute: ApiRoute = {
  path: 'statuses/user_timeline',
  methods: '*',
  auth: 'user',
  formats: TIMELINE_FORMATS,
  cache: true,
  handler(req) {
    const who = resolveWho(req, { orSelf: true });
    const items = authorTimeline(req.hub.db, who.xchan_hash, req.user().channel.channel_hash, CONTENT_VERBS, timelinePage(req.params));
    return timelineReply(req, items, `Statuses of ${screenName(who)}`);
  },
};
