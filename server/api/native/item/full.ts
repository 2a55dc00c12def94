import type { ApiRoute } from '../../../http/api.js';
import { badRequest } from '../../../http/errors.js';
import { fullConversation } from '../../../services/streams.js';

/**
 * item/full: everything about an item of this channel — its whole conversation (comments and
 * activities such as likes), each with its terms, metadata and attachments — in the backup form.
 */
export const itemFull: ApiRoute = {
  path: 'item/full',
  methods: ['GET', 'POST'],
  auth: 'user',
  handler({ hub, params, user }) {
    const mid = params.str('mid')?.trim();
    const id = mid ? undefined : params.int('item_id', { min: 1 });
    if (!mid && id === undefined) throw badRequest('missing parameter: mid or item_id');
    return { item: fullConversation(hub, user().channel, { id, mid }) };
  },
};
