import type { ApiRoute } from '../../../http/api.js';
import { loadDirectMessages } from '../../../services/compat/direct-messages.js';
import { sendDirectMessage } from '../../../services/mail.js';
import { resolveWho } from '../who.js';
import { dmOptions } from './options.js';
import { reply } from '../reply.js';

/**
 * direct_messages/new: text to user_id or screen_name (a channel of this hub), with an optional
 * title/subject; replyto continues a conversation; `mimetype` says how the text is written (BBCode
 * by default, text/markdown, text/plain). Answers the sent message.
 */
export const directMessagesNew: ApiRoute = {
  path: 'direct_messages/new',
  methods: ['POST', 'PUT'],
  auth: 'user',
  handler: (req) => {
    const { channel } = req.user();
    const p = req.params;
    const named = ['user_id', 'screen_name', 'profileurl'].some((n) => p.str(n)?.trim());
    const replyTo = p.int('replyto', { min: 1 });
    const mail = sendDirectMessage(req.hub, channel, {
      recipient: named ? resolveWho(req, { orSelf: false }).xchan_hash : undefined,
      body: p.str('text') ?? '',
      mimetype: p.str('mimetype')?.trim() || undefined,
      title: p.str('title') ?? p.str('subject'),
      replyTo,
    });
    const [dm] = loadDirectMessages(req.hub, channel, [mail], dmOptions(req));
    return reply(dm, 'direct-messages');
  },
};
