import type { MastodonRoute } from '../../admit.js';
import { unreadGroupCount } from '../../../../services/mastodon/notification-groups.js';
import { groupFilter } from '../../v2/notifications.js';

/** GET /api/v1/notifications/unread_count: notifications above the notifications marker, at most limit (100, up to 1000). */
export const unreadCountRoute: MastodonRoute = {
  path: 'notifications/unread_count',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:notifications',
  handler(req) {
    const limit = req.params.clamped('limit', 100, 1, 1000);
    return { count: unreadGroupCount(req.hub, req.user().channel, { ...groupFilter(req), grouped: [], limit }) };
  },
};
