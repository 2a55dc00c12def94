import type { ApiRoute } from '../../../http/api.js';
import { answersHandler } from '../conversation/show.js';
import { TIMELINE_FORMATS } from '../status-replies.js';

/** compat/conversation (also compat/conversation/:id): the same as conversation/show. */
export const compatConversationRoute: ApiRoute = { path: 'compat/conversation', methods: '*', auth: 'user', idParam: true, formats: TIMELINE_FORMATS, handler: answersHandler };
