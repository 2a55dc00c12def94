import type { ApiRoute } from '../../http/api.js';
import { badRequest, notFound } from '../../http/errors.js';
import { getGroup, getGroupByName } from '../../store/groups.js';
import { groupMembersJoined } from '../../store/native-records.js';
import { groupMemberRecord } from '../../serializers/native/group.js';

/** group_members: the members of one of the channel's groups (group_id or group_name). */
export const groupMembers: ApiRoute = {
  path: 'group_members',
  methods: ['GET', 'POST'],
  auth: 'user',
  handler({ hub, params, user }) {
    const uid = user().channel.channel_id;
    const id = params.int('group_id', { min: 1 });
    const name = params.str('group_name');
    if (id === undefined && !name) throw badRequest('missing parameter: group_id or group_name');
    const g = id !== undefined ? getGroup(hub.db, uid, id) : getGroupByName(hub.db, uid, name!);
    if (!g) throw notFound('group not found');
    return groupMembersJoined(hub.db, uid, g.id).map((row) => groupMemberRecord(row as unknown as Record<string, unknown>));
  },
};
