import type { MastodonRoute } from '../admit.js';
import { mediaV1Route } from '../v1/media.js';

/**
 * POST /api/v2/media: Mastodon answers 202 while it processes and apps then poll GET
 * /api/v1/media/:id until 200; the hub has processed the picture already, so the poll's first
 * answer is 200.
 */
export const mediaV2Route: MastodonRoute = {
  ...mediaV1Route,
  async handler(req) {
    const media = await mediaV1Route.handler(req);
    req.ctx.status = 202;
    return media;
  },
};
