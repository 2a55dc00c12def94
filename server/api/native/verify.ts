import type { ApiRoute } from '../../http/api.js';
import { getXchan } from '../../store/xchans.js';
import { verifyRecord } from '../../serializers/native/channel.js';

/** verify: the authenticated channel joined with its xchan, without secrets. */
export const verify: ApiRoute = {
  path: 'verify',
  methods: ['GET', 'POST'],
  auth: 'user',
  handler({ hub, user }) {
    const { channel } = user();
    return verifyRecord(channel, getXchan(hub.db, channel.channel_hash));
  },
};
