import type { ApiRequest } from '../../../http/api.js';
import type { MastodonRoute } from '../admit.js';
import { loadNotifications, MASTODON_TYPES, type MastodonType } from '../../../services/mastodon/notifications.js';
import { setLinkHeader, pageParams } from '../common.js';

function typesOf(req: ApiRequest): MastodonType[] {
  const wanted = req.params.list('types').filter((t): t is MastodonType => (MASTODON_TYPES as readonly string[]).includes(t));
  const excluded = new Set(req.params.list('exclude_types'));
  const base = req.params.has('types') ? wanted : [...MASTODON_TYPES];
  return base.filter((t) => !excluded.has(t));
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
