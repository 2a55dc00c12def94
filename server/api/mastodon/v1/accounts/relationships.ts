import type { MastodonRoute } from '../../admit.js';
import { getXchanById } from '../../../../store/xchans.js';
import { relationships } from '../../../../services/mastodon/relationships.js';
import type { XchanRow } from '../../../../store/rows.js';

/** GET /api/v1/accounts/relationships?id[]=…: unknown ids are left out. */
export const relationshipsRoute: MastodonRoute = {
  path: 'accounts/relationships',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:follows',
  handler(req) {
    const ids = req.params.list('id').filter((v) => /^\d{1,15}$/.test(v)).slice(0, 100);
    const people = ids.map((id) => getXchanById(req.hub.db, Number(id))).filter((x): x is XchanRow => Boolean(x && !x.xchan_deleted));
    return relationships(req.hub, req.user().channel, people);
  },
};
