import type { ApiRoute } from '../../../http/api.js';
import { reply } from '../reply.js';

/** lists/subscriptions: lists of others the caller follows; there are none on this hub. */
export const listsSubscriptionsRoute: ApiRoute = {
  path: 'lists/subscriptions',
  methods: '*',
  auth: 'user',
  handler: (req) => {
    req.user();
    return reply({ lists: [], next_cursor: 0, next_cursor_str: '0', previous_cursor: 0, previous_cursor_str: '0' }, 'lists_list');
  },
};
