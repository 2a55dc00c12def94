import type { MastodonRoute } from '../../admit.js';
import { notFound } from '../../../../http/errors.js';
import { deleteAllNotifications, deleteNotification, getNotificationRow } from '../../../../store/mastodon.js';
import { renderNotifications } from '../../../../services/mastodon/notifications.js';
import { pathId } from '../../common.js';

/** GET /api/v1/notifications/:id. */
export const notificationShowRoute: MastodonRoute = {
  path: 'notifications/:id',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:notifications',
  handler(req) {
    const me = req.user().channel;
    const row = getNotificationRow(req.hub.db, me.channel_id, pathId(req));
    const n = row && renderNotifications(req.hub, me, [row])[0];
    if (!n) throw notFound('Record not found');
    return n;
  },
};

/** POST /api/v1/notifications/:id/dismiss (and the older notifications/dismiss with id). */
export const notificationDismissRoute: MastodonRoute = {
  path: 'notifications/:id/dismiss',
  methods: ['POST'],
  auth: 'user',
  scope: 'write:notifications',
  handler(req) {
    if (!deleteNotification(req.hub.db, req.user().channel.channel_id, pathId(req))) throw notFound('Record not found');
    return {};
  },
};

/** POST /api/v1/notifications/clear. */
export const notificationsClearRoute: MastodonRoute = {
  path: 'notifications/clear',
  methods: ['POST'],
  auth: 'user',
  scope: 'write:notifications',
  handler(req) {
    deleteAllNotifications(req.hub.db, req.user().channel.channel_id);
    return {};
  },
};
