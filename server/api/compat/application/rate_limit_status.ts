import type { ApiRoute } from '../../../http/api.js';
import { unmeteredRateLimit } from '../../../serializers/compat/rate-limit.js';
import { readOAuthRequest } from '../../../auth/oauth-request.js';
import { compatRoutes } from '../routes.js';
import { reply } from '../reply.js';

/**
 * application/rate_limit_status: Twitter's per-endpoint allowances, one per readable route of this
 * API grouped by family (`resources=statuses,users` picks families). Nothing is metered here, so
 * every allowance is whole.
 */
export const applicationRateLimitStatus: ApiRoute = {
  path: 'application/rate_limit_status',
  methods: ['GET'],
  auth: 'user',
  handler(req) {
    const identity = req.user();
    const wanted = new Set(req.params.list('resources'));
    const limit = unmeteredRateLimit(new Date());
    const allowance = { limit: limit.hourlyLimit, remaining: limit.remaining, reset: limit.resetAt };
    const resources: Record<string, Record<string, typeof allowance>> = {};
    for (const route of compatRoutes) {
      if (route.methods !== '*' && !route.methods.includes('GET')) continue;
      const family = route.path.split('/')[0]!;
      if (wanted.size && !wanted.has(family)) continue;
      (resources[family] ??= {})[`/${route.path}${route.idParam ? '/:id' : ''}`] = allowance;
    }
    const token = identity.via === 'oauth' ? readOAuthRequest(req.ctx, req.hub.baseUrl)?.oauth.oauth_token : undefined;
    return reply({ rate_limit_context: token ? { access_token: token } : {}, resources }, 'rate_limit_status');
  },
};
