import type { ApiRequest } from '../../../../http/api.js';
import type { MastodonRoute } from '../../admit.js';
import { notFound } from '../../../../http/errors.js';
import { getConnection } from '../../../../store/connections.js';
import { approveRequest, rejectRequest } from '../../../../services/connections.js';
import { relationships } from '../../../../services/mastodon/relationships.js';
import { accountXchan } from '../../common.js';

function pendingRequest(req: ApiRequest) {
  const x = accountXchan(req);
  const c = getConnection(req.hub.db, req.user().channel.channel_id, x.xchan_hash);
  if (!c || c.abook_self || !c.abook_pending) throw notFound('Record not found');
  return { x, c };
}

/** POST /api/v1/follow_requests/:id/authorize: they follow the channel from now on (it does not follow them by this). */
export const authorizeRequestRoute: MastodonRoute = {
  path: 'follow_requests/:id/authorize',
  methods: ['POST'],
  auth: 'user',
  scope: 'write:follows',
  handler(req) {
    const { x, c } = pendingRequest(req);
    approveRequest(req.hub, req.user().channel, c.abook_id);
    return relationships(req.hub, req.user().channel, [x])[0];
  },
};

/** POST /api/v1/follow_requests/:id/reject: their follow ends; they may ask again. */
export const rejectRequestRoute: MastodonRoute = {
  path: 'follow_requests/:id/reject',
  methods: ['POST'],
  auth: 'user',
  scope: 'write:follows',
  handler(req) {
    const { x, c } = pendingRequest(req);
    rejectRequest(req.hub, req.user().channel, c.abook_id);
    return relationships(req.hub, req.user().channel, [x])[0];
  },
};
