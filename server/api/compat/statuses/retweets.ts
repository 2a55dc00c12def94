import type { ApiRoute } from '../../../http/api.js';
import { itemsByIds, visibleAmong } from '../../../store/item-batch.js';
import { sharesOf } from '../../../store/item-shares.js';
import { statusesReply } from '../status-replies.js';
import { loadStatuses } from '../../../services/compat/statuses.js';
import { statusOptions } from '../params.js';
import { visibleStatus } from '../visible-status.js';

/** statuses/retweets/:id (or ?id=): the latest retweets of a status that the caller may see (count, at most 100). */
export const statusesRetweetsRoute: ApiRoute = {
  path: 'statuses/retweets',
  methods: ['GET'],
  auth: 'user',
  idParam: true,
  handler(req) {
    const original = visibleStatus(req);
    const count = req.params.clamped('count', 100, 1, 100);
    const ids = sharesOf(req.hub.db, original.id, 500);
    const visible = visibleAmong(req.hub.db, ids, req.user().channel.channel_hash);
    const items = itemsByIds(req.hub.db, ids.filter((id) => visible.has(id)).slice(0, count)).sort((a, b) => b.id - a.id);
    return statusesReply(loadStatuses(req.hub, req.identity?.channel, items, statusOptions(req.params)));
  },
};
