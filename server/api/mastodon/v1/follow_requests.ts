import type { MastodonRoute } from '../admit.js';
import { incomingOf } from '../../../store/social-graph.js';
import { accountsOf, pageList, pageParams } from '../common.js';

/** GET /api/v1/follow_requests: connection requests waiting for the channel's answer. */
export const followRequestsRoute: MastodonRoute = {
  path: 'follow_requests',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:follows',
  handler(req) {
    const list = pageList(req, incomingOf(req.hub.db, req.user().channel.channel_id), (e) => e.id, pageParams(req, { max: 80, def: 40 }));
    return accountsOf(req, list.map((e) => e.hash));
  },
};
