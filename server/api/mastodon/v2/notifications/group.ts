import type { ApiRequest } from '../../../../http/api.js';
import { notFound } from '../../../../http/errors.js';
import type { MastodonRoute } from '../../admit.js';
import type { MastodonAccount } from '../../../../serializers/mastodon/account.js';
import { parseGroupKey } from '../../../../services/mastodon/notification-keys.js';
import { dismissGroup, groupNotifications, notificationGroup } from '../../../../services/mastodon/notification-groups.js';
import { accountsOf, pageList, pageParams } from '../../common.js';

/** The group key of the path; 404 for text that is no group key. */
function groupKey(req: ApiRequest): string {
  const key = req.pathParams.group_key ?? '';
  if (!parseGroupKey(key)) throw notFound('Record not found');
  return key;
}

/** GET /api/v2/notifications/:group_key. */
export const notificationGroupRoute: MastodonRoute = {
  path: 'notifications/:group_key',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:notifications',
  handler(req) {
    const group = notificationGroup(req.hub, req.user().channel, groupKey(req));
    if (!group) throw notFound('Record not found');
    return group;
  },
};

/** POST /api/v2/notifications/:group_key/dismiss: deletes every notification of the group. */
export const notificationGroupDismissRoute: MastodonRoute = {
  path: 'notifications/:group_key/dismiss',
  methods: ['POST'],
  auth: 'user',
  scope: 'write:notifications',
  handler(req) {
    dismissGroup(req.hub, req.user().channel, groupKey(req));
    return {};
  },
};

/** GET /api/v2/notifications/:group_key/accounts: who acted, newest first, paged by notification id. */
export const notificationGroupAccountsRoute: MastodonRoute = {
  path: 'notifications/:group_key/accounts',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:notifications',
  handler(req): MastodonAccount[] {
    const members = groupNotifications(req.hub, req.user().channel, groupKey(req));
    const page = pageList(req, members, (n) => n.row.id, pageParams(req, { def: 40, max: 80 }));
    return accountsOf(req, [...new Set(page.map((n) => n.row.xchan))]);
  },
};
