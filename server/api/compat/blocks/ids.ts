import type { ApiRoute } from '../../../http/api.js';
import { contactLists } from '../../../store/social-graph.js';
import { idsReply } from '../graph-replies.js';

/** blocks/ids: user ids of the connections the caller blocked, in Twitter's cursor envelope. */
export const blocksIdsRoute: ApiRoute = {
  path: 'blocks/ids',
  methods: '*',
  auth: 'user',
  handler: (req) => idsReply(req, contactLists.blocked(req.hub.db, req.user().channel.channel_id), { envelope: true }),
};
