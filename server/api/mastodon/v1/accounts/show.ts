import type { MastodonRoute } from '../../admit.js';
import { accountOf, accountXchan } from '../../common.js';

/** GET /api/v1/accounts/:id. */
export const accountShowRoute: MastodonRoute = {
  path: 'accounts/:id',
  methods: ['GET'],
  auth: 'none',
  scope: 'read:accounts',
  handler: (req) => accountOf(req, accountXchan(req).xchan_hash),
};
