import type { MastodonRoute } from '../../admit.js';
import { followersOf, friendsOf } from '../../../../store/social-graph.js';
import { getChannelByHash } from '../../../../store/channels.js';
import { accountsOf, accountXchan, pageList, pageParams } from '../../common.js';

/** GET /api/v1/accounts/:id/followers: the hub's channels that follow them. */
export const followersRoute: MastodonRoute = {
  path: 'accounts/:id/followers',
  methods: ['GET'],
  auth: 'none',
  scope: 'read:accounts',
  handler(req) {
    const x = accountXchan(req);
    const list = pageList(req, followersOf(req.hub.db, x.xchan_hash), (e) => e.id, pageParams(req, { max: 80, def: 40 }));
    return accountsOf(req, list.map((e) => e.hash));
  },
};

/** GET /api/v1/accounts/:id/following: whom a channel of the hub follows (nobody known for others). */
export const followingRoute: MastodonRoute = {
  path: 'accounts/:id/following',
  methods: ['GET'],
  auth: 'none',
  scope: 'read:accounts',
  handler(req) {
    const x = accountXchan(req);
    const ch = getChannelByHash(req.hub.db, x.xchan_hash);
    const list = pageList(req, ch ? friendsOf(req.hub.db, ch.channel_id) : [], (e) => e.id, pageParams(req, { max: 80, def: 40 }));
    return accountsOf(req, list.map((e) => e.hash));
  },
};
