import type { ApiRoute } from '../../../http/api.js';
import { contactLists } from '../../../store/social-graph.js';
import { ownGraphSubject } from '../graph-subject.js';
import { idsReply, onTwitterPath } from '../graph-replies.js';

/** followers/ids: user ids of those following the caller (always the cursor envelope under api/1.1/). */
export const followersIdsRoute: ApiRoute = {
  path: 'followers/ids',
  methods: '*',
  auth: 'user',
  handler(req) {
    ownGraphSubject(req, 'followers');
    return idsReply(req, contactLists.followers(req.hub.db, req.user().channel.channel_hash), { envelope: onTwitterPath(req) });
  },
};
