import type { ApiRoute } from '../../../http/api.js';
import { groupMembersWithXchan } from '../../../store/groups.js';
import { userListReply } from '../graph-replies.js';
import { requestedList } from '../list-replies.js';

/** lists/members: the people of one of the caller's lists, in Twitter's cursor envelope of users. */
export const listsMembersRoute: ApiRoute = {
  path: 'lists/members',
  methods: '*',
  auth: 'user',
  handler(req) {
    const group = requestedList(req);
    const members = groupMembersWithXchan(req.hub.db, group.id).map((x) => ({ hash: x.xchan_hash, id: x.xchan_id })).sort((a, b) => b.id - a.id);
    return userListReply(req, members, { envelope: true });
  },
};
