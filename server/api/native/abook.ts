import type { ApiRoute } from '../../http/api.js';
import { notFound } from '../../http/errors.js';
import { getAbookWithXchan, listAbookWithXchan } from '../../store/native-records.js';
import { abookRecord } from '../../serializers/native/abook.js';

/** abook: the channel's connections (its own entry included) with their xchan; abook_id selects one. */
export const abook: ApiRoute = {
  path: 'abook',
  methods: ['GET', 'POST'],
  auth: 'user',
  handler({ hub, params, user }) {
    const uid = user().channel.channel_id;
    const id = params.int('abook_id', { min: 1 });
    const rows = id === undefined ? listAbookWithXchan(hub.db, uid) : [getAbookWithXchan(hub.db, uid, id)];
    if (rows[0] === undefined && id !== undefined) throw notFound('connection not found');
    return rows.map((r) => abookRecord(r as unknown as Record<string, unknown>));
  },
};
