import type { MastodonRoute } from '../admit.js';
import { getPConfig } from '../../../store/config.js';

/** GET /api/v1/custom_emojis: the hub has none. */
export const customEmojisRoute: MastodonRoute = { path: 'custom_emojis', methods: ['GET'], auth: 'none', scope: 'none', handler: () => [] };

/** GET /api/v1/preferences. */
export const preferencesRoute: MastodonRoute = {
  path: 'preferences',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:accounts',
  handler(req) {
    const privacy = getPConfig(req.hub.db, req.user().channel.channel_id, 'mastodon', 'privacy') ?? 'public';
    return { 'posting:default:visibility': privacy, 'posting:default:sensitive': false, 'posting:default:language': null, 'reading:expand:media': 'default', 'reading:expand:spoilers': false };
  },
};

/** Lists the hub keeps none of (filters, announcements, followed tags, scheduled posts …): empty. */
function empty(path: string, scope: string): MastodonRoute {
  return { path, methods: ['GET'], auth: 'user', scope, handler: () => [] };
}

export const filtersV1Route = empty('filters', 'read:filters');
export const announcementsRoute = empty('announcements', 'read');
export const followedTagsRoute = empty('followed_tags', 'read:follows');
export const scheduledStatusesRoute = empty('scheduled_statuses', 'read:statuses');
export const endorsementsRoute = empty('endorsements', 'read:accounts');
export const domainBlocksRoute = empty('domain_blocks', 'read:blocks');
export const trendsRoute: MastodonRoute = { path: 'trends/tags', methods: ['GET'], auth: 'none', scope: 'none', handler: () => [] };
