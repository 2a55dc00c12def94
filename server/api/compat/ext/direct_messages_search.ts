import type { ApiRoute } from '../../../http/api.js';
import { badRequest } from '../../../http/errors.js';
import { loadDirectMessages } from '../../../services/compat/direct-messages.js';
import { searchMail } from '../../../store/mail.js';
import { dmOptions } from '../direct_messages/options.js';
import { reply } from '../reply.js';

const ROOT = 'direct_message_search';

/** ext/direct_messages_search: the user's messages whose text contains `searchstring`, newest first. */
export const extDirectMessagesSearch: ApiRoute = {
  path: 'ext/direct_messages_search',
  methods: ['GET'],
  auth: 'user',
  handler: (req) => {
    const { channel } = req.user();
    const needle = req.params.str('searchstring')?.trim();
    if (!needle) throw badRequest('searchstring not specified');
    const found = loadDirectMessages(req.hub, channel, searchMail(req.hub.db, channel.channel_id, needle), dmOptions(req));
    if (!found.length) return reply({ success: false, search_results: 'nothing found' }, ROOT);
    return reply({ success: true, search_results: found }, ROOT, { childNames: { search_results: 'direct_message' } });
  },
};
