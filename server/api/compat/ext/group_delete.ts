import type { ApiRoute } from '../../../http/api.js';
import { badRequest } from '../../../http/errors.js';
import { groupForDeletion } from '../../../services/compat/groups.js';
import { destroyList } from '../../../services/compat/lists.js';
import { groupInput } from './group-input.js';
import { groupResultReply } from './group-replies.js';

/** ext/group_delete: deletes a group; gid and name must both be given and belong together. */
export const extGroupDelete: ApiRoute = {
  path: 'ext/group_delete',
  methods: ['POST', 'DELETE'],
  auth: 'user',
  handler: (req) => {
    const { channel } = req.user();
    const input = groupInput(req);
    if (input.gid === undefined || !input.name) throw badRequest('gid or name not specified');
    const group = groupForDeletion(req.hub, channel, input.gid, input.name);
    destroyList(req.hub, channel, group.id);
    return groupResultReply('group_delete', { group, status: 'deleted', wrongUsers: [] });
  },
};
