import type { ApiRoute } from '../../../http/api.js';
import { followersOf } from '../../../store/social-graph.js';
import { ownGraphSubject } from '../graph-subject.js';
import { idsReply } from '../graph-replies.js';

/** followers/ids: user ids of those following the caller. */
export const followersIdsRoute: ApiRoute = {
  path: 'followers/ids',
  methods: '*',
  auth: 'user',
  handler(req) {
    ownGraphSubject(req, 'followers');
    return idsReply(req, followersOf(req.hub.db, req.user().channel.channel_hash));
  },
};
