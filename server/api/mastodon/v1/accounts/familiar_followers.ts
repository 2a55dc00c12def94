import type { MastodonRoute } from '../../admit.js';
import { getXchanById } from '../../../../store/xchans.js';
import { followersOf, friendsOf } from '../../../../store/social-graph.js';
import type { XchanRow } from '../../../../store/rows.js';
import { accountsOf } from '../../common.js';

/**
 * GET /api/v1/accounts/familiar_followers?id[]=…: for each account, the accounts the caller follows
 * that follow it too (as /accounts/:id/followers shows them). Unknown ids are left out.
 */
export const familiarFollowersRoute: MastodonRoute = {
  path: 'accounts/familiar_followers',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:follows',
  handler(req) {
    const db = req.hub.db;
    const ids = [...new Set(req.params.list('id').filter((v) => /^\d{1,15}$/.test(v)))].slice(0, 100);
    const people = ids.map((id) => getXchanById(db, Number(id))).filter((x): x is XchanRow => Boolean(x && !x.xchan_deleted));
    const followed = new Set(friendsOf(db, req.user().channel.channel_id).map((e) => e.hash));
    return people.map((x) => ({
      id: String(x.xchan_id),
      accounts: accountsOf(req, followersOf(db, x.xchan_hash).filter((e) => followed.has(e.hash)).map((e) => e.hash)),
    }));
  },
};
