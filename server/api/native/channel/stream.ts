import type { ApiRoute } from '../../../http/api.js';
import { channelStream } from '../../../services/streams.js';
import { createItem } from '../../../services/items.js';
import { itemRecord } from '../../../serializers/native/item.js';
import { toDbDate } from '../../../util/time.js';
import { dateParam } from '../param-dates.js';
import { activityInput } from '../item/input.js';

const DEFAULT_DAYS = 14;

/**
 * channel/stream. GET: the channel's own wall threads with activity since `mindate` (UTC,
 * default 14 days ago) in the portable item format. POST: creates an item from parameters named
 * like item columns.
 */
export const channelStreamRoute: ApiRoute = {
  path: 'channel/stream',
  methods: ['GET', 'POST'],
  auth: 'user',
  // GET only (the cache never answers other methods); the window's start moves with the clock,
  // which a cached answer lags by at most its 2 s of life, as network/stream's expiry does.
  cache: true,
  handler({ ctx, hub, params, user }) {
    const { channel } = user();
    if (ctx.method === 'POST') {
      const item = createItem(hub, channel, activityInput(hub, channel, params));
      return { success: true, item_id: String(item.id), activity: itemRecord(item) };
    }
    const mindate = dateParam(params, 'mindate') ?? toDbDate(new Date(Date.now() - DEFAULT_DAYS * 86400_000));
    return channelStream(hub, channel, mindate);
  },
};
