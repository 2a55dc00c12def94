import type { ApiRoute } from '../../../http/api.js';
import { instanceV1 } from '../../../serializers/mastodon/instance.js';
import { instanceFacts } from '../instance-facts.js';

/** GET /api/v1/instance: what apps read before logging in. */
export const instanceRoute: ApiRoute = { path: 'instance', methods: ['GET'], auth: 'none', handler: (req) => instanceV1(instanceFacts(req.hub)) };
