import type { ApiRoute } from '../../../http/api.js';
import { badRequest } from '../../../http/errors.js';
import { approveRequest } from '../../../services/connections.js';
import { getAbookWithXchan } from '../../../store/native-records.js';
import { abookRecord } from '../../../serializers/native/abook.js';

/**
 * abook/approve: accepts a connection (follow) request, abook_id, also one ignored before; answers
 * the connection, now with abook_pending 0. The channel does not follow them by this: following
 * back is friendships/create.
 */
export const abookApprove: ApiRoute = {
  path: 'abook/approve',
  methods: ['POST'],
  auth: 'user',
  handler({ hub, params, user }) {
    const channel = user().channel;
    const id = params.int('abook_id', { min: 1 });
    if (id === undefined) throw badRequest('missing parameter: abook_id');
    approveRequest(hub, channel, id);
    return abookRecord(getAbookWithXchan(hub.db, channel.channel_id, id) as unknown as Record<string, unknown>);
  },
};
