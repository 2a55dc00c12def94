import type { ApiRoute } from '../../../http/api.js';
import { listDirectMessages } from './list.js';

/** direct_messages/all: received and sent messages. */
export const directMessagesAll: ApiRoute = { path: 'direct_messages/all', methods: '*', auth: 'user', handler: (req) => listDirectMessages(req, 'all') };
