import type { ApiRoute } from '../../../../http/api.js';
import { accountOf, accountXchan } from '../../common.js';

/** GET /api/v1/accounts/:id. */
export const accountShowRoute: ApiRoute = {
  path: 'accounts/:id',
  methods: ['GET'],
  auth: 'none',
  handler: (req) => accountOf(req, accountXchan(req).xchan_hash),
};
