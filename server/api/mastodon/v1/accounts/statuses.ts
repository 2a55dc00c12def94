import type { MastodonRoute } from '../../admit.js';
import { authorTimeline } from '../../../../store/item-timelines.js';
import { itemsByIds, visibleAmong } from '../../../../store/item-batch.js';
import { pinnedItemIds } from '../../../../store/mastodon.js';
import { getChannelByHash } from '../../../../store/channels.js';
import { CONTENT_VERBS } from '../../../../services/verbs.js';
import { accountXchan, flag, pageParams, readPage, statusPage, viewerOf } from '../../common.js';
import type { StatusItemRow } from '../../../../store/rows.js';

const hasMedia = (i: StatusItemRow) => /\/attach\/[0-9a-f]{64}/.test(i.attach);

/** GET /api/v1/accounts/:id/statuses: exclude_replies, only_media, pinned, paging. */
export const accountStatusesRoute: MastodonRoute = {
  path: 'accounts/:id/statuses',
  methods: ['GET'],
  auth: 'none',
  scope: 'read:statuses',
  handler(req) {
    const x = accountXchan(req);
    const observer = viewerOf(req)?.channel_hash ?? '';
    const db = req.hub.db;
    if (flag(req, 'pinned')) {
      const ch = getChannelByHash(db, x.xchan_hash);
      const ids = ch ? pinnedItemIds(db, ch.channel_id) : [];
      const visible = visibleAmong(db, ids, observer);
      return statusPage(req, itemsByIds(db, ids.filter((id) => visible.has(id))).sort((a, b) => b.id - a.id));
    }
    const p = pageParams(req);
    const onlyMedia = flag(req, 'only_media');
    const excludeReplies = flag(req, 'exclude_replies');
    const read = (page: Parameters<typeof authorTimeline>[4]) => authorTimeline(db, x.xchan_hash, observer, CONTENT_VERBS, { ...page, excludeReplies });
    let items = readPage(onlyMedia ? { ...p, limit: 200 } : p, read);
    // Of a wider page, the newest with media; with min_id, those just above it.
    if (onlyMedia) items = p.minId !== undefined ? items.filter(hasMedia).slice(-p.limit) : items.filter(hasMedia).slice(0, p.limit);
    if (flag(req, 'exclude_reblogs')) items = items.filter((i) => i.verb !== 'http://activitystrea.ms/schema/1.0/share');
    return statusPage(req, items);
  },
};
