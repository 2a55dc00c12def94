import type { ApiRequest } from '../../../../http/api.js';
import type { MastodonRoute } from '../../admit.js';
import { notFound } from '../../../../http/errors.js';
import { getConnection } from '../../../../store/connections.js';
import { connect, ignoreRequest } from '../../../../services/connections.js';
import { relationships } from '../../../../services/mastodon/relationships.js';
import { accountXchan } from '../../common.js';

function pendingRequest(req: ApiRequest) {
  const x = accountXchan(req);
  const c = getConnection(req.hub.db, req.user().channel.channel_id, x.xchan_hash);
  if (!c || c.abook_self || !c.abook_pending) throw notFound('Record not found');
  return { x, c };
}

/** POST /api/v1/follow_requests/:id/authorize: accepting is connecting back. */
export const authorizeRequestRoute: MastodonRoute = {
  path: 'follow_requests/:id/authorize',
  methods: ['POST'],
  auth: 'user',
  scope: 'write:follows',
  handler(req) {
    const { x } = pendingRequest(req);
    connect(req.hub, req.user().channel, x.xchan_hash);
    return relationships(req.hub, req.user().channel, [x])[0];
  },
};

/** POST /api/v1/follow_requests/:id/reject: the request is ignored (as the connections page does). */
export const rejectRequestRoute: MastodonRoute = {
  path: 'follow_requests/:id/reject',
  methods: ['POST'],
  auth: 'user',
  scope: 'write:follows',
  handler(req) {
    const { x, c } = pendingRequest(req);
    ignoreRequest(req.hub, req.user().channel, c.abook_id);
    return relationships(req.hub, req.user().channel, [x])[0];
  },
};
