import type { ApiRoute } from '../../../http/api.js';
import { contactLists } from '../../../store/social-graph.js';
import { ownGraphSubject } from '../graph-subject.js';
import { idsReply, onTwitterPath } from '../graph-replies.js';

/** friends/ids: user ids of those the caller follows (always the cursor envelope under api/1.1/). */
export const friendsIdsRoute: ApiRoute = {
  path: 'friends/ids',
  methods: '*',
  auth: 'user',
  handler(req) {
    ownGraphSubject(req, 'friends');
    return idsReply(req, contactLists.friends(req.hub.db, req.user().channel.channel_id), { envelope: onTwitterPath(req) });
  },
};
