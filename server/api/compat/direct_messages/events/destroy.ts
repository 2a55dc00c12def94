import type { ApiRoute } from '../../../../http/api.js';
import { deleteMail } from '../../../../store/mail.js';
import { requestedMessage } from './show.js';

/** direct_messages/events/destroy: deletes the caller's copy of a message (the other side keeps theirs); 204. */
export const directMessagesEventsDestroy: ApiRoute = {
  path: 'direct_messages/events/destroy',
  methods: ['DELETE', 'POST'],
  auth: 'user',
  handler(req) {
    const mail = requestedMessage(req);
    deleteMail(req.hub.db, req.user().channel.channel_id, mail.shared_id);
    req.ctx.status = 204;
    req.ctx.body = null;
    return undefined;
  },
};
