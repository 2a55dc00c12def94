import type { ApiRoute } from '../../../http/api.js';
import { contactLists } from '../../../store/social-graph.js';
import { ownGraphSubject } from '../graph-subject.js';
import { userListReply } from '../graph-replies.js';

/** statuses/friends: those the caller follows, as users. */
export const statusesFriendsRoute: ApiRoute = {
  path: 'statuses/friends',
  methods: '*',
  auth: 'user',
  handler(req) {
    ownGraphSubject(req, 'friends');
    return userListReply(req, contactLists.friends(req.hub.db, req.user().channel.channel_id));
  },
};
