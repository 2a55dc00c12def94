import type { ApiRoute } from '../../../http/api.js';
import { listReply, requestedList } from '../list-replies.js';

/** lists/show: one of the caller's lists, by list_id or slug. */
export const listsShowRoute: ApiRoute = {
  path: 'lists/show',
  methods: '*',
  auth: 'user',
  handler: (req) => listReply(req, requestedList(req)),
};
