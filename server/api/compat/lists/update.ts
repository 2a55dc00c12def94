import type { ApiRoute } from '../../../http/api.js';
import { updateList } from '../../../services/compat/lists.js';
import { badRequest } from '../../../http/errors.js';
import { listReply } from '../list-replies.js';

/** lists/update: renames list_id to `name` and/or sets its mode (public/private). */
export const listsUpdateRoute: ApiRoute = {
  path: 'lists/update',
  methods: ['POST'],
  auth: 'user',
  handler(req) {
    const id = req.params.int('list_id', { min: 1 });
    if (id === undefined) throw badRequest('gid not specified');
    const mode = req.params.str('mode')?.trim();
    if (mode && mode !== 'public' && mode !== 'private') throw badRequest('mode must be public or private');
    const group = updateList(req.hub, req.user().channel, id, { name: req.params.str('name'), visible: mode ? mode === 'public' : undefined });
    return listReply(req, group);
  },
};
