import type { ApiRoute } from '../../../../http/api.js';
import type { MastodonRoute } from '../../admit.js';
import { getActivities } from '../../../../store/items.js';
import { sharersOf } from '../../../../store/mastodon.js';
import { getXchansByHash } from '../../../../store/xchans.js';
import { visibleItem } from '../../../../services/mastodon/posting.js';
import { VERB } from '../../../../services/verbs.js';
import { accountsOf, pageList, pageParams, pathId, viewerOf } from '../../common.js';

function people(req: Parameters<ApiRoute['handler']>[0], hashes: string[]) {
  const xchans = getXchansByHash(req.hub.db, hashes);
  const entries = [...new Set(hashes)].map((hash) => ({ hash, id: xchans.get(hash)?.xchan_id ?? 0 })).filter((e) => e.id).sort((a, b) => b.id - a.id);
  return accountsOf(req, pageList(req, entries, (e) => e.id, pageParams(req, { max: 80, def: 40 })).map((e) => e.hash));
}

/** GET /api/v1/statuses/:id/favourited_by: who liked it. */
export const favouritedByRoute: MastodonRoute = {
  path: 'statuses/:id/favourited_by',
  methods: ['GET'],
  auth: 'none',
  scope: 'read:accounts',
  handler(req) {
    const item = visibleItem(req.hub, viewerOf(req), pathId(req));
    return people(req, getActivities(req.hub.db, item.mid, item.uid).filter((a) => a.verb === VERB.LIKE && !a.item_deleted).map((a) => a.author_xchan));
  },
};

/** GET /api/v1/statuses/:id/reblogged_by: who shared it. */
export const rebloggedByRoute: MastodonRoute = {
  path: 'statuses/:id/reblogged_by',
  methods: ['GET'],
  auth: 'none',
  scope: 'read:accounts',
  handler(req) {
    const item = visibleItem(req.hub, viewerOf(req), pathId(req));
    return people(req, sharersOf(req.hub.db, item.id));
  },
};
