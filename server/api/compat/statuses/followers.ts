import type { ApiRoute } from '../../../http/api.js';
import { contactLists } from '../../../store/social-graph.js';
import { ownGraphSubject } from '../graph-subject.js';
import { userListReply } from '../graph-replies.js';

/** statuses/followers: those following the caller, as users. */
export const statusesFollowersRoute: ApiRoute = {
  path: 'statuses/followers',
  methods: '*',
  auth: 'user',
  handler(req) {
    ownGraphSubject(req, 'followers');
    return userListReply(req, contactLists.followers(req.hub.db, req.user().channel.channel_hash));
  },
};
