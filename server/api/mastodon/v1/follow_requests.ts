import type { MastodonRoute } from '../admit.js';
import { incomingPage } from '../../../store/social-graph.js';
import { accountsOf, contactPage } from '../common.js';

/** GET /api/v1/follow_requests: connection requests waiting for the channel's answer. */
export const followRequestsRoute: MastodonRoute = {
  path: 'follow_requests',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:follows',
  handler(req) {
    const uid = req.user().channel.channel_id;
    const list = contactPage(req, (page) => incomingPage(req.hub.db, uid, page));
    return accountsOf(req, list.map((e) => e.hash));
  },
};
