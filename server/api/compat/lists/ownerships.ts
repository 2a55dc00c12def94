import type { ApiRoute } from '../../../http/api.js';
import { listGroups } from '../../../store/groups.js';
import { reply } from '../reply.js';
import { listsOf } from '../list-replies.js';

/** lists/ownerships: the caller's privacy groups as Twitter lists, in one page. */
export const listsOwnershipsRoute: ApiRoute = {
  path: 'lists/ownerships',
  methods: '*',
  auth: 'user',
  handler(req) {
    const lists = listsOf(req, listGroups(req.hub.db, req.user().channel.channel_id));
    return reply({ lists, next_cursor: 0, next_cursor_str: '0', previous_cursor: 0, previous_cursor_str: '0' }, 'lists_list');
  },
};
