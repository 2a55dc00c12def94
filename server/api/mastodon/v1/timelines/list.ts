import type { MastodonRoute } from '../../admit.js';
import { groupTimeline } from '../../../../store/item-timelines.js';
import { CONTENT_VERBS } from '../../../../services/verbs.js';
import { ownList } from '../../../../services/compat/lists.js';
import { pageParams, pathId, readPage, statusPage } from '../../common.js';

/** GET /api/v1/timelines/list/:id: posts by the members of one of the channel's privacy groups. */
export const listTimelineRoute: MastodonRoute = {
  path: 'timelines/list/:id',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:lists',
  handler(req) {
    const me = req.user().channel;
    const list = ownList(req.hub, me, pathId(req));
    return statusPage(req, readPage(pageParams(req), (p) => groupTimeline(req.hub.db, me.channel_id, list.id, me.channel_hash, CONTENT_VERBS, p)));
  },
};
