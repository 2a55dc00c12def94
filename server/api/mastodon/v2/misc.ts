import type { ApiRoute } from '../../../http/api.js';

/** GET /api/v2/filters: the hub filters nothing. */
export const filtersV2Route: ApiRoute = { path: 'filters', methods: ['GET'], auth: 'user', scope: 'read:filters', handler: () => [] };
