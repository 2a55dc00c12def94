import type { ApiRoute } from '../../../http/api.js';
import { createList } from '../../../services/compat/lists.js';
import { listReply } from '../list-replies.js';

/** lists/create: a new privacy group named `name`; mode=public makes it visible. */
export const listsCreateRoute: ApiRoute = {
  path: 'lists/create',
  methods: ['POST'],
  auth: 'user',
  handler(req) {
    const group = createList(req.hub, req.user().channel, req.params.str('name'), req.params.str('mode')?.trim() === 'public');
    return listReply(req, group);
  },
};
