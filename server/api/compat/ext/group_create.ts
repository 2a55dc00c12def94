import type { ApiRoute } from '../../../http/api.js';
import { badRequest } from '../../../http/errors.js';
import { createGroupWithMembers } from '../../../services/compat/groups.js';
import { groupInput } from './group-input.js';
import { groupResultReply } from './group-replies.js';

/** ext/group_create: a group named `name` whose members are the posted users. */
export const extGroupCreate: ApiRoute = {
  path: 'ext/group_create',
  methods: ['POST', 'PUT'],
  auth: 'user',
  handler: (req) => {
    const input = groupInput(req);
    if (!input.name) throw badRequest('group name not specified');
    return groupResultReply('group_create', createGroupWithMembers(req.hub, req.user().channel, input.name, input.members));
  },
};
