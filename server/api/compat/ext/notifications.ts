import type { ApiRoute } from '../../../http/api.js';
import { ATTRIBUTES } from '../../../http/xml.js';
import { compatNotification } from '../../../serializers/compat/notification.js';
import { listNotifications, pageNotifications } from '../../../store/notify.js';
import { idBound } from '../params.js';
import { notificationPosts } from '../../../services/compat/notification-posts.js';
import { reply } from '../reply.js';

/**
 * ext/notifications: the last 50 notifications, unseen first; JSON false when there are none. Each
 * also names the post it is about with its first line (post_id, post_excerpt), which Friendica's do not.
 * Friendica's stop there; here count (at most 200), since_id (exclusive) and max_id (inclusive) ask
 * for a page of them instead, newest first, so that every notification can be reached.
 */
export const extNotifications: ApiRoute = {
  path: 'ext/notifications',
  methods: ['GET'],
  auth: 'user',
  cache: true,
  handler: (req) => {
    const { channel } = req.user();
    const now = new Date();
    const paged = ['count', 'since_id', 'max_id'].some((p) => req.params.has(p));
    const rows = paged
      ? pageNotifications(req.hub.db, channel.channel_id, { count: req.params.clamped('count', 50, 1, 200), sinceId: idBound(req.params, 'since_id'), maxId: idBound(req.params, 'max_id') })
      : listNotifications(req.hub.db, channel.channel_id, 50);
    const posts = notificationPosts(req.hub, channel.channel_hash, rows);
    const notes = rows.map((n) => compatNotification(n, now, req.hub.baseUrl, posts.get(n.id)));
    if (req.format !== 'json') return reply(notes.map((n) => ({ [ATTRIBUTES]: n })), 'notes', { itemName: 'note', arrayType: false });
    return reply(notes.length ? notes : false, 'notes');
  },
};
