import type { ApiRoute } from '../../../http/api.js';
import { contactLists } from '../../../store/social-graph.js';
import { userListReply } from '../graph-replies.js';

/** blocks/list: the connections the caller blocked, as users. */
export const blocksListRoute: ApiRoute = {
  path: 'blocks/list',
  methods: '*',
  auth: 'user',
  handler: (req) => userListReply(req, contactLists.blocked(req.hub.db, req.user().channel.channel_id)),
};
