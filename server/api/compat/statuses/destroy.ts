import type { ApiRoute } from '../../../http/api.js';
import { deleteItem } from '../../../services/items.js';
import { forbidden } from '../../../http/errors.js';
import { statusReply } from '../status-replies.js';
import { visibleStatus } from '../visible-status.js';

/**
 * statuses/destroy (also statuses/destroy/:id): deletes a status the caller wrote or that lives in
 * its thread; answers it as it was. 403 for a visible status of somebody else, 404 for an unknown one.
 */
export const statusesDestroyRoute: ApiRoute = {
  path: 'statuses/destroy',
  methods: ['POST', 'DELETE'],
  auth: 'user',
  idParam: true,
  handler(req) {
    const me = req.user().channel;
    const item = visibleStatus(req);
    if (item.author_xchan !== me.channel_hash && item.uid !== me.channel_id) throw forbidden('You may not delete another user\'s status.');
    const before = statusReply(req, item);
    deleteItem(req.hub, me, item.id);
    return before;
  },
};
