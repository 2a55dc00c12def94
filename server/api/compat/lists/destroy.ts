import type { ApiRoute } from '../../../http/api.js';
import { destroyList, ownList } from '../../../services/compat/lists.js';
import { badRequest } from '../../../http/errors.js';
import { listReply } from '../list-replies.js';

/** lists/destroy: deletes list_id; answers the list as it was. */
export const listsDestroyRoute: ApiRoute = {
  path: 'lists/destroy',
  methods: ['POST'],
  auth: 'user',
  handler(req) {
    const id = req.params.int('list_id', { min: 1 });
    if (id === undefined) throw badRequest('gid not specified');
    const me = req.user().channel;
    const before = listReply(req, ownList(req.hub, me, id));
    destroyList(req.hub, me, id);
    return before;
  },
};
