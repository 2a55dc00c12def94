import type { ApiRequest } from '../../../http/api.js';
import type { MastodonRoute } from '../admit.js';
import { loadNotifications, wantedTypes, type MastodonType } from '../../../services/mastodon/notifications.js';
import { setLinkHeader, pageParams } from '../common.js';

/** The types[] and exclude_types[] parameters. */
export function typesOf(req: ApiRequest): MastodonType[] {
  return wantedTypes(req.params.has('types') ? req.params.list('types') : undefined, req.params.list('exclude_types'));
}

/** GET /api/v1/notifications: types[], exclude_types[], account_id, paging. */
export const notificationsRoute: MastodonRoute = {
  path: 'notifications',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:notifications',
  handler(req) {
    const p = pageParams(req, { def: 40, max: 80 });
    let list = loadNotifications(req.hub, req.user().channel, { ...p, types: typesOf(req) });
    const accountId = req.params.str('account_id');
    if (accountId) list = list.filter((n) => n.account.id === accountId);
    setLinkHeader(req, list.map((n) => n.id));
    return list;
  },
};
