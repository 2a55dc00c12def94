import type { ApiRoute } from '../../http/api.js';
import { notFound } from '../../http/errors.js';
import { getConnectionById, listAbconfig } from '../../store/connections.js';
import { abconfigRecord } from '../../serializers/native/abook.js';

/** abconfig: metadata of the channel's connections; abook_id restricts it to one connection. */
export const abconfig: ApiRoute = {
  path: 'abconfig',
  methods: ['GET', 'POST'],
  auth: 'user',
  handler({ hub, params, user }) {
    const uid = user().channel.channel_id;
    const id = params.int('abook_id', { min: 1 });
    let xchan: string | undefined;
    if (id !== undefined) {
      const c = getConnectionById(hub.db, uid, id);
      if (!c) throw notFound('connection not found');
      xchan = c.abook_xchan;
    }
    return listAbconfig(hub.db, uid, xchan).map(abconfigRecord);
  },
};
