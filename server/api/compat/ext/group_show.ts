import type { ApiRoute } from '../../../http/api.js';
import { ownList } from '../../../services/compat/lists.js';
import { listGroups } from '../../../store/groups.js';
import { reply } from '../reply.js';
import { groupEntries } from './group-replies.js';

/** ext/group_show: all of the user's groups, or the one named by gid, each with its members. */
export const extGroupShow: ApiRoute = {
  path: 'ext/group_show',
  methods: '*',
  auth: 'user',
  handler: (req) => {
    const { channel } = req.user();
    const gid = req.params.int('gid', { min: 1 });
    const groups = gid !== undefined ? [ownList(req.hub, channel, gid)] : listGroups(req.hub.db, channel.channel_id);
    return reply(groupEntries(req, groups), 'groups', { itemName: 'group' });
  },
};
