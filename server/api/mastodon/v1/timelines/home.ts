import type { MastodonRoute } from '../../admit.js';
import { homeTimeline } from '../../../../store/item-timelines.js';
import { CONTENT_VERBS } from '../../../../services/verbs.js';
import { pageParams, readPage, statusPage } from '../../common.js';

/** GET /api/v1/timelines/home: what the channel and those it follows wrote. */
export const homeTimelineRoute: MastodonRoute = {
  path: 'timelines/home',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:statuses',
  handler(req) {
    const me = req.user().channel;
    return statusPage(req, readPage(pageParams(req), (p) => homeTimeline(req.hub.db, me.channel_id, me.channel_hash, CONTENT_VERBS, p)));
  },
};
