import type { ApiRoute } from '../../../http/api.js';
import { badRequest, notFound } from '../../../http/errors.js';
import { getPConfig } from '../../../store/config.js';
import { getConnectionById } from '../../../store/connections.js';
import { getGroup } from '../../../store/groups.js';
import { networkStream, type NetworkFilters } from '../../../services/streams.js';
import { dateParam } from '../param-dates.js';

const MAX_RECORDS = 1000;

/**
 * network/stream: the threads the channel can see (its own and its connections'), newest activity
 * first, a page of threads at a time, each thread top followed by its replies. Filters as
 * Hubzilla's: dates (dbegin/dend), a group (gid, or Hubzilla's gid=1&group=<id>), a connection
 * (cid = abook_id), closeness, star, wall, category, search, conv, item_id/mid, since_id.
 */
export const networkStreamRoute: ApiRoute = {
  path: 'network/stream',
  methods: ['GET'],
  auth: 'user',
  cache: true,
  handler({ hub, params, user }) {
    const { channel } = user();
    const uid = channel.channel_id;
    const pageSize = Math.min(MAX_RECORDS, Math.max(1, Math.trunc(Number(getPConfig(hub.db, uid, 'system', 'itemspage'))) || 10));
    const records = params.int('records', { min: 1, max: MAX_RECORDS });
    const start = params.int('start', { min: 0 });
    const page = params.int('page', { min: 1, max: 1_000_000_000 }) ?? 1;
    const limit = records ?? pageSize;
    const offset = start ?? (page - 1) * limit;

    const order = params.str('order')?.trim() || 'comment';
    if (!['comment', 'commented', 'post', 'created'].includes(order)) throw badRequest('parameter order must be comment or post');

    const filters: NetworkFilters = { order: order === 'post' || order === 'created' ? 'created' : 'commented', limit, offset, itemType: 0 };
    if (params.bool('pages')) filters.itemType = 3;
    if (params.str('item_type')?.trim() === '*') filters.itemType = undefined;
    filters.topOnly = params.bool('top');
    filters.starred = params.bool('star');
    filters.wallOnly = params.bool('wall');
    filters.conversationsOnly = params.bool('conv');
    filters.threadId = params.int('item_id', { min: 1 });
    filters.threadMid = params.str('mid')?.trim() || undefined;
    filters.sinceId = params.int('since_id', { min: 0 });
    filters.category = params.str('cat')?.trim() || undefined;
    const search = params.str('search')?.trim();
    if (search?.startsWith('#') && search.length > 1) filters.hashtag = search.slice(1);
    else if (search) filters.text = search;
    filters.createdFrom = dateParam(params, 'dbegin');
    filters.createdTo = dateParam(params, 'dend');
    if (filters.createdFrom && filters.createdTo && filters.createdTo < filters.createdFrom) throw badRequest('dend is before dbegin');
    filters.closenessMin = params.int('cmin', { min: 0, max: 99 });
    filters.closenessMax = params.int('cmax', { min: 0, max: 99 });

    // Hubzilla's clients send gid=1 with the id in `group`; gid=<id> alone works as well.
    const groupId = params.int('group', { min: 1 }) ?? params.int('gid', { min: 1 });
    if (groupId !== undefined) {
      const g = getGroup(hub.db, uid, groupId);
      if (!g) throw notFound('group not found');
      filters.group = { id: g.id, hash: g.hash };
    }
    const cid = params.int('cid', { min: 1 });
    if (cid !== undefined) {
      const c = getConnectionById(hub.db, uid, cid);
      if (!c) throw notFound('connection not found');
      filters.connectionXchan = c.abook_xchan;
    }
    return networkStream(hub, channel, filters);
  },
};
