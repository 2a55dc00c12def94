import type { ApiRoute } from '../../../../http/api.js';
import { contactLists } from '../../../../store/social-graph.js';
import { userListReply } from '../../graph-replies.js';

/** mutes/users/list: the hub has no muting, so the list is always empty (Twitter's cursor envelope). */
export const mutesUsersListRoute: ApiRoute = {
  path: 'mutes/users/list',
  methods: '*',
  auth: 'user',
  handler: (req) => {
    req.user();
    return userListReply(req, contactLists.none(), { envelope: true });
  },
};
