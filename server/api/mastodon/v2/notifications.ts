import type { ApiRequest } from '../../../http/api.js';
import { HttpError } from '../../../http/errors.js';
import type { MastodonRoute } from '../admit.js';
import { getXchanById } from '../../../store/xchans.js';
import { groupedNotifications, groupedTypes, unreadGroupCount, type GroupQuery } from '../../../services/mastodon/notification-groups.js';
import { typesOf } from '../v1/notifications.js';
import { pageParams, setLinkHeader } from '../common.js';

/** types[], exclude_types[], grouped_types[] and account_id, as both the list and the count read them. */
export function groupFilter(req: ApiRequest): Omit<GroupQuery, 'limit'> {
  const q: Omit<GroupQuery, 'limit'> = { types: typesOf(req), grouped: groupedTypes(req.params.has('grouped_types') ? req.params.list('grouped_types') : undefined) };
  const accountId = req.params.str('account_id')?.trim();
  if (accountId) {
    const x = /^\d{1,15}$/.test(accountId) ? getXchanById(req.hub.db, Number(accountId)) : undefined;
    // Nobody's notifications: none match.
    q.actor = x?.xchan_hash ?? '';
  }
  return q;
}

/** GET /api/v2/notifications: notifications grouped, a page of groups at a time (Mastodon 4.3). */
export const groupedNotificationsRoute: MastodonRoute = {
  path: 'notifications',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:notifications',
  handler(req) {
    const expand = req.params.str('expand_accounts') ?? 'full';
    if (expand !== 'full' && expand !== 'partial_avatars') throw new HttpError(400, "Invalid value for 'expand_accounts', allowed values are 'full' and 'partial_avatars'");
    // include_filtered is accepted: the hub filters no notifications away.
    const p = pageParams(req, { def: 40, max: 80 });
    const { page, ids, last } = groupedNotifications(req.hub, req.user().channel, { ...groupFilter(req), ...p }, { partialAvatars: expand === 'partial_avatars' });
    setLinkHeader(req, ids, { last });
    return page;
  },
};

/** GET /api/v2/notifications/unread_count: groups above the notifications marker, at most limit (100, up to 1000). */
export const unreadGroupCountRoute: MastodonRoute = {
  path: 'notifications/unread_count',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:notifications',
  handler(req) {
    const limit = req.params.clamped('limit', 100, 1, 1000);
    return { count: unreadGroupCount(req.hub, req.user().channel, { ...groupFilter(req), limit }) };
  },
};
