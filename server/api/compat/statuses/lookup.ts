import type { ApiRoute } from '../../../http/api.js';
import { badRequest } from '../../../http/errors.js';
import { itemsByIds, visibleAmong } from '../../../store/item-batch.js';
import { loadStatuses } from '../../../services/compat/statuses.js';
import { flag, statusOptions } from '../params.js';
import { reply } from '../reply.js';
import { statusesReply } from '../status-replies.js';

const MAX = 100;

/**
 * statuses/lookup: the statuses of a comma-separated `id` list that the caller may see (at most 100),
 * in the order asked; with map=true Twitter's {"id": {"<id>": status or null}} instead.
 */
export const statusesLookupRoute: ApiRoute = {
  path: 'statuses/lookup',
  methods: ['GET', 'POST'],
  auth: 'user',
  handler(req) {
    const raw = req.params.list('id');
    if (raw.length > MAX) throw badRequest(`at most ${MAX} ids per request`);
    const ids = raw.map((s) => {
      if (!/^\d{1,15}$/.test(s)) throw badRequest(`id: not a status id: ${s.slice(0, 40)}`);
      return Number(s);
    });
    const visible = visibleAmong(req.hub.db, ids, req.user().channel.channel_hash);
    const byId = new Map(itemsByIds(req.hub.db, [...visible]).map((i) => [i.id, i]));
    const items = [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
    const statuses = loadStatuses(req.hub, req.identity?.channel, items, statusOptions(req.params));
    if (!flag(req.params, 'map')) return statusesReply(statuses);
    const found = new Map(statuses.map((s) => [s.id, s]));
    return reply({ id: Object.fromEntries(ids.map((id) => [String(id), found.get(id) ?? null])) }, 'statuses');
  },
};
