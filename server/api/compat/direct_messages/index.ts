import type { ApiRoute } from '../../../http/api.js';
import { listDirectMessages } from './list.js';

/** direct_messages: the messages others sent to the user. */
export const directMessages: ApiRoute = { path: 'direct_messages', methods: '*', auth: 'user', handler: (req) => listDirectMessages(req, 'inbox') };
