import type { MastodonRoute } from '../../admit.js';
import { followersPage, friendsPage } from '../../../../store/social-graph.js';
import { getChannelByHash } from '../../../../store/channels.js';
import { accountsOf, accountXchan, contactPage } from '../../common.js';

/** GET /api/v1/accounts/:id/followers: the hub's channels that follow them. */
export const followersRoute: MastodonRoute = {
  path: 'accounts/:id/followers',
  methods: ['GET'],
  auth: 'none',
  scope: 'read:accounts',
  handler(req) {
    const x = accountXchan(req);
    const list = contactPage(req, (page) => followersPage(req.hub.db, x.xchan_hash, page));
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
    const list = contactPage(req, (page) => (ch ? friendsPage(req.hub.db, ch.channel_id, page) : []));
    return accountsOf(req, list.map((e) => e.hash));
  },
};
