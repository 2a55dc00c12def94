import type { ApiRoute } from '../../../http/api.js';
import { badRequest, notFound } from '../../../http/errors.js';
import { markMailSeen } from '../../../store/mail.js';
import { resultReply } from '../direct_messages/options.js';

/** ext/direct_messages_setseen: marks the user's copy of a message read. */
export const extDirectMessagesSetseen: ApiRoute = {
  path: 'ext/direct_messages_setseen',
  methods: ['GET'],
  auth: 'user',
  handler: (req) => {
    const { channel } = req.user();
    const raw = req.params.str('id')?.trim();
    if (!raw) throw badRequest('message id not specified');
    if (!/^\d{1,15}$/.test(raw)) throw badRequest('message id must be a number');
    if (!markMailSeen(req.hub.db, channel.channel_id, Number(raw))) throw notFound('message id not in database');
    return resultReply('direct_messages_setseen', 'ok', 'message set to seen');
  },
};
