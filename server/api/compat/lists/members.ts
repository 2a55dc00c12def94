import type { ApiRoute } from '../../../http/api.js';
import { contactLists } from '../../../store/social-graph.js';
import { userListReply } from '../graph-replies.js';
import { requestedList } from '../list-replies.js';

/** lists/members: the people of one of the caller's lists, in Twitter's cursor envelope of users. */
export const listsMembersRoute: ApiRoute = {
  path: 'lists/members',
  methods: '*',
  auth: 'user',
  handler(req) {
    const group = requestedList(req);
    return userListReply(req, contactLists.groupMembers(req.hub.db, group.id), { envelope: true });
  },
};
