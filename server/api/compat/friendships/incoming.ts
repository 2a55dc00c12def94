import type { ApiRoute } from '../../../http/api.js';
import { contactLists } from '../../../store/social-graph.js';
import { idsReply } from '../graph-replies.js';

/** friendships/incoming: user ids of those waiting for the caller to accept their connection. */
export const friendshipsIncomingRoute: ApiRoute = {
  path: 'friendships/incoming',
  methods: '*',
  auth: 'user',
  handler: (req) => idsReply(req, contactLists.incoming(req.hub.db, req.user().channel.channel_id)),
};
