import type { ApiRoute } from '../../../http/api.js';
import { ATTRIBUTES } from '../../../http/xml.js';
import { compatNotification } from '../../../serializers/compat/notification.js';
import { listNotifications } from '../../../store/notify.js';
import { reply } from '../reply.js';

/** ext/notifications: the last 50 notifications, unseen first; JSON false when there are none. */
export const extNotifications: ApiRoute = {
  path: 'ext/notifications',
  methods: ['GET'],
  auth: 'user',
  cache: true,
  handler: (req) => {
    const { channel } = req.user();
    const now = new Date();
    const notes = listNotifications(req.hub.db, channel.channel_id, 50).map((n) => compatNotification(n, now, req.hub.baseUrl));
    if (req.format !== 'json') return reply(notes.map((n) => ({ [ATTRIBUTES]: n })), 'notes', { itemName: 'note', arrayType: false });
    return reply(notes.length ? notes : false, 'notes');
  },
};
