import type { ApiRoute } from '../../http/api.js';
import { badRequest, notFound } from '../../http/errors.js';
import { getGroup, getGroupByName } from '../../store/groups.js';
import { groupMembersJoined, type GroupMemberJoinRow } from '../../store/native-records.js';
import { groupMemberRecord } from '../../serializers/native/group.js';
import { answerArrayListing } from './array-listing.js';

/**
 * group_members: the members of one of the channel's groups (group_id or group_name), in the order
 * they were added. Every member, as Hubzilla answers, or a slice with start and records.
 */
export const groupMembers: ApiRoute = {
  path: 'group_members',
  methods: ['GET', 'POST'],
  auth: 'user',
  handler(req) {
    const { hub, params } = req;
    const uid = req.user().channel.channel_id;
    const id = params.int('group_id', { min: 1 });
    const name = params.str('group_name');
    if (id === undefined && !name) throw badRequest('missing parameter: group_id or group_name');
    const g = id !== undefined ? getGroup(hub.db, uid, id) : getGroupByName(hub.db, uid, name!);
    if (!g) throw notFound('group not found');
    return answerArrayListing(req, (slice) => groupMembersJoined(hub.db, uid, g.id, slice), (row: GroupMemberJoinRow) => groupMemberRecord(row as unknown as Record<string, unknown>));
  },
};
