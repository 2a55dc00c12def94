import type { ApiRoute } from '../../../http/api.js';
import { ATTRIBUTES } from '../../../http/xml.js';
import { compatNotification } from '../../../serializers/compat/notification.js';
import { listNotifications } from '../../../store/notify.js';
import { notificationPosts } from '../../../services/compat/notification-posts.js';
import { reply } from '../reply.js';

/**
 * ext/notifications: the last 50 notifications, unseen first; JSON false when there are none. Each
 * also names the post it is about with its first line (post_id, post_excerpt), which Friendica's do not.
 */
export const extNotifications: ApiRoute = {
  path: 'ext/notifications',
  methods: ['GET'],
  auth: 'user',
  cache: true,
  handler: (req) => {
    const { channel } = req.user();
    const now = new Date();
    const rows = listNotifications(req.hub.db, channel.channel_id, 50);
    const posts = notificationPosts(req.hub, channel.channel_hash, rows);
    const notes = rows.map((n) => compatNotification(n, now, req.hub.baseUrl, posts.get(n.id)));
    if (req.format !== 'json') return reply(notes.map((n) => ({ [ATTRIBUTES]: n })), 'notes', { itemName: 'note', arrayType: false });
    return reply(notes.length ? notes : false, 'notes');
  },
};
