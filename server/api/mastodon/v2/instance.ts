import type { MastodonRoute } from '../admit.js';
import { instanceV2 } from '../../../serializers/mastodon/instance.js';
import { instanceFacts } from '../instance-facts.js';

/** GET /api/v2/instance. */
export const instanceV2Route: MastodonRoute = { path: 'instance', methods: ['GET'], auth: 'none', scope: 'none', handler: (req) => instanceV2(instanceFacts(req.hub)) };
