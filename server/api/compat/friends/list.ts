import type { ApiRoute } from '../../../http/api.js';
import { contactLists } from '../../../store/social-graph.js';
import { ownGraphSubject } from '../graph-subject.js';
import { userListReply } from '../graph-replies.js';

/** friends/list: those the caller follows, as users in Twitter's cursor envelope. */
export const friendsListRoute: ApiRoute = {
  path: 'friends/list',
  methods: '*',
  auth: 'user',
  handler(req) {
    ownGraphSubject(req, 'friends');
    return userListReply(req, contactLists.friends(req.hub.db, req.user().channel.channel_id), { envelope: true });
  },
};
