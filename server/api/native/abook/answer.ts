import type { ApiRoute } from '../../../http/api.js';
import type { Hub } from '../../../hub-context.js';
import type { ChannelRow } from '../../../store/rows.js';
import { badRequest } from '../../../http/errors.js';
import { getAbookWithXchan } from '../../../store/native-records.js';
import { abookRecord } from '../../../serializers/native/abook.js';

/** A route answering a connection request (abook_id) one way; it answers the connection as it is then. */
export function requestAnswerRoute(path: string, answer: (hub: Hub, channel: ChannelRow, abookId: number) => unknown): ApiRoute {
  return {
    path,
    methods: ['POST'],
    auth: 'user',
    handler({ hub, params, user }) {
      const channel = user().channel;
      const id = params.int('abook_id', { min: 1 });
      if (id === undefined) throw badRequest('missing parameter: abook_id');
      answer(hub, channel, id);
      return abookRecord(getAbookWithXchan(hub.db, channel.channel_id, id) as unknown as Record<string, unknown>);
    },
  };
}
