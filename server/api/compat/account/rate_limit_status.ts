import type { ApiRoute } from '../../../http/api.js';
import { rateLimitJson, rateLimitXml, unmeteredRateLimit } from '../../../serializers/compat/rate-limit.js';
import { reply } from '../reply.js';

/** account/rate_limit_status: the hub meters no API calls, so the allowance is always whole. */
export const rateLimitStatus: ApiRoute = {
  path: 'account/rate_limit_status',
  methods: '*',
  auth: 'user',
  handler(req) {
    const limit = unmeteredRateLimit(new Date());
    return req.format === 'json' ? reply(rateLimitJson(limit), 'hash') : reply(rateLimitXml(limit), 'hash');
  },
};
