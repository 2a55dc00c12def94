import type { ApiRoute } from '../../../http/api.js';
import { listDirectMessages } from './list.js';

/** direct_messages/sent: the messages the user wrote. */
export const directMessagesSent: ApiRoute = { path: 'direct_messages/sent', methods: '*', auth: 'user', handler: (req) => listDirectMessages(req, 'sent') };
