import type { ApiRoute } from '../../../http/api.js';
import { listChannels } from '../../../store/channels.js';

/** channel/list: the nicknames of the account's channels (removed ones left out). */
export const channelList: ApiRoute = {
  path: 'channel/list',
  methods: ['GET', 'POST'],
  auth: 'user',
  handler({ hub, user }) {
    return listChannels(hub.db, user().account.account_id).map((c) => c.channel_address);
  },
};
