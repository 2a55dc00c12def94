import type { ApiRoute } from '../../../http/api.js';
import { contactLists } from '../../../store/social-graph.js';
import { ownGraphSubject } from '../graph-subject.js';
import { userListReply } from '../graph-replies.js';

/** followers/list: those following the caller, as users in Twitter's cursor envelope. */
export const followersListRoute: ApiRoute = {
  path: 'followers/list',
  methods: '*',
  auth: 'user',
  handler(req) {
    ownGraphSubject(req, 'followers');
    return userListReply(req, contactLists.followers(req.hub.db, req.user().channel.channel_hash), { envelope: true });
  },
};
