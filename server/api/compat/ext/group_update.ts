import type { ApiRoute } from '../../../http/api.js';
import { badRequest } from '../../../http/errors.js';
import { replaceGroupMembers } from '../../../services/compat/groups.js';
import { groupInput } from './group-input.js';
import { groupResultReply } from './group-replies.js';

/** ext/group_update: the posted users become the group's whole membership. */
export const extGroupUpdate: ApiRoute = {
  path: 'ext/group_update',
  methods: ['POST'],
  auth: 'user',
  handler: (req) => {
    const input = groupInput(req);
    if (input.gid === undefined) throw badRequest('gid not specified');
    if (!input.name) throw badRequest('group name not specified');
    return groupResultReply('group_update', replaceGroupMembers(req.hub, req.user().channel, input.gid, input.name, input.members));
  },
};
