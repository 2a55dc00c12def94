import type { ApiRoute } from '../../../http/api.js';
import { conversationUri, listDirectMessages } from './list.js';

/** direct_messages/conversation: every message of one conversation (uri = friendica_parent_uri). */
export const directMessagesConversation: ApiRoute = {
  path: 'direct_messages/conversation',
  methods: '*',
  auth: 'user',
  handler: (req) => listDirectMessages(req, 'all', conversationUri(req)),
};
