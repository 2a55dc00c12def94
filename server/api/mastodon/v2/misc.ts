import type { MastodonRoute } from '../admit.js';

/** GET /api/v2/filters: the hub filters nothing. */
export const filtersV2Route: MastodonRoute = { path: 'filters', methods: ['GET'], auth: 'user', scope: 'read:filters', handler: () => [] };
