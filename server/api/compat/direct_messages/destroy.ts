import type { ApiRoute } from '../../../http/api.js';
import { badRequest } from '../../../http/errors.js';
import { loadDirectMessages } from '../../../services/compat/direct-messages.js';
import { deleteMail, getMail } from '../../../store/mail.js';
import { flag } from '../params.js';
import { reply } from '../reply.js';
import { dmOptions, resultReply } from './options.js';

/**
 * direct_messages/destroy: deletes the user's own copy of a message (the other side keeps theirs).
 * friendica_parenturi, when given, must be the message's conversation. Every error is a 400.
 */
export const directMessagesDestroy: ApiRoute = {
  path: 'direct_messages/destroy',
  methods: ['POST', 'DELETE'],
  auth: 'user',
  idParam: true,
  handler: (req) => {
    const { channel } = req.user();
    const raw = (req.pathParams.id ?? req.params.str('id') ?? '').trim();
    const parentUri = req.params.str('friendica_parenturi')?.trim();
    if (!raw) throw badRequest(parentUri ? 'message id not specified' : 'message id or parenturi not specified');
    if (!/^\d{1,15}$/.test(raw)) throw badRequest('message id must be a number');
    const mail = getMail(req.hub.db, channel.channel_id, Number(raw));
    if (!mail || (parentUri && mail.parent_mid !== parentUri)) throw badRequest('message id not in database');
    const [dm] = loadDirectMessages(req.hub, channel, [mail], dmOptions(req));
    if (!deleteMail(req.hub.db, channel.channel_id, mail.shared_id)) throw badRequest('message id not in database');
    if (flag(req.params, 'friendica_verbose')) return resultReply('direct_messages_delete', 'ok', 'message deleted');
    return reply(dm, 'direct_message');
  },
};
