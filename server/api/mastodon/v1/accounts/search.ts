import type { MastodonRoute } from '../../admit.js';
import { searchXchans } from '../../../../store/xchan-lookup.js';
import { accountsOf, offsetParam } from '../../common.js';

/** GET /api/v1/accounts/search?q=: people by name, nickname or address. */
export const accountsSearchRoute: MastodonRoute = {
  path: 'accounts/search',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:accounts',
  handler(req) {
    const q = (req.params.str('q') ?? '').trim().replace(/^@/, '').slice(0, 200);
    if (!q) return [];
    const limit = req.params.clamped('limit', 40, 1, 80);
    const offset = offsetParam(req);
    return accountsOf(req, searchXchans(req.hub.db, q, limit + offset).slice(offset).map((x) => x.xchan_hash));
  },
};
