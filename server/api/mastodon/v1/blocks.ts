import type { MastodonRoute } from '../admit.js';
import { blockedBy } from '../../../store/social-graph.js';
import { listAbconfig } from '../../../store/connections.js';
import { getXchansByHash } from '../../../store/xchans.js';
import { accountsOf, pageList, pageParams } from '../common.js';

/** GET /api/v1/blocks. */
export const blocksRoute: MastodonRoute = {
  path: 'blocks',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:blocks',
  handler(req) {
    const list = pageList(req, blockedBy(req.hub.db, req.user().channel.channel_id), (e) => e.id, pageParams(req, { max: 80, def: 40 }));
    return accountsOf(req, list.map((e) => e.hash));
  },
};

/** GET /api/v1/mutes: the connections the channel muted. */
export const mutesRoute: MastodonRoute = {
  path: 'mutes',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:mutes',
  handler(req) {
    const muted = listAbconfig(req.hub.db, req.user().channel.channel_id).filter((r) => r.cat === 'mastodon' && r.k === 'muted' && r.v === '1').map((r) => r.xchan);
    const xchans = getXchansByHash(req.hub.db, muted);
    const entries = muted.map((hash) => ({ hash, id: xchans.get(hash)?.xchan_id ?? 0 })).filter((e) => e.id).sort((a, b) => b.id - a.id);
    return accountsOf(req, pageList(req, entries, (e) => e.id, pageParams(req, { max: 80, def: 40 })).map((e) => e.hash));
  },
};
