import type { ApiRoute } from '../../../http/api.js';
import { listGroups } from '../../../store/groups.js';
import { reply } from '../reply.js';
import { listsOf } from '../list-replies.js';
import { ownGraphSubject } from '../graph-subject.js';

/** lists/list: the caller's lists, as Twitter's bare array (a list subscribes to nothing else here). */
export const listsListRoute: ApiRoute = {
  path: 'lists/list',
  methods: '*',
  auth: 'user',
  handler(req) {
    ownGraphSubject(req, 'lists');
    return reply(listsOf(req, listGroups(req.hub.db, req.user().channel.channel_id)), 'lists', { itemName: 'list' });
  },
};
