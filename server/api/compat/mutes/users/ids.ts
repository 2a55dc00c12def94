import type { ApiRoute } from '../../../../http/api.js';
import { contactLists } from '../../../../store/social-graph.js';
import { idsReply } from '../../graph-replies.js';

/** mutes/users/ids: the hub has no muting, so the list is always empty (Twitter's cursor envelope). */
export const mutesUsersIdsRoute: ApiRoute = {
  path: 'mutes/users/ids',
  methods: '*',
  auth: 'user',
  handler: (req) => {
    req.user();
    return idsReply(req, contactLists.none(), { envelope: true });
  },
};
