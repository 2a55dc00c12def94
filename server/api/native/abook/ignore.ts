import type { ApiRoute } from '../../../http/api.js';
import { badRequest } from '../../../http/errors.js';
import { ignoreRequest } from '../../../services/connections.js';
import { getAbookWithXchan } from '../../../store/native-records.js';
import { abookRecord } from '../../../serializers/native/abook.js';

/**
 * abook/ignore: ignores a connection request (abook_id), as Hubzilla's connection editor does;
 * answers the connection, now with abook_ignored 1. Accepting it is abook/approve.
 */
export const abookIgnore: ApiRoute = {
  path: 'abook/ignore',
  methods: ['POST'],
  auth: 'user',
  handler({ hub, params, user }) {
    const channel = user().channel;
    const id = params.int('abook_id', { min: 1 });
    if (id === undefined) throw badRequest('missing parameter: abook_id');
    ignoreRequest(hub, channel, id);
    return abookRecord(getAbookWithXchan(hub.db, channel.channel_id, id) as unknown as Record<string, unknown>);
  },
};
