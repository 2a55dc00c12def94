import type { ApiRoute } from '../../http/api.js';
import { listAllGroups } from '../../store/native-records.js';
import { groupRecord } from '../../serializers/native/group.js';

/** group: the channel's privacy groups (deleted ones flagged), as a bare array. */
export const group: ApiRoute = {
  path: 'group',
  methods: ['GET', 'POST'],
  auth: 'user',
  handler({ hub, user }) {
    return listAllGroups(hub.db, user().channel.channel_id).map(groupRecord);
  },
};
