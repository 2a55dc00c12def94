import type { MastodonRoute } from '../admit.js';
import { instanceV1 } from '../../../serializers/mastodon/instance.js';
import { instanceFacts } from '../instance-facts.js';

/** GET /api/v1/instance: what apps read before logging in. */
export const instanceRoute: MastodonRoute = { path: 'instance', methods: ['GET'], auth: 'none', scope: 'none', handler: (req) => instanceV1(instanceFacts(req.hub)) };
