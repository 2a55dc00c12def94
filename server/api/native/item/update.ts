import type { ApiRoute } from '../../../http/api.js';
import { findItemByIconfig } from '../../../store/items.js';
import { createItem, editItem } from '../../../services/items.js';
import { itemRecord } from '../../../serializers/native/item.js';
import { updateRequest } from './input.js';

/**
 * item/update: creates a post, a comment (parent / parent_mid) or other item kinds from form
 * input, or edits one of the channel's own items (post_id, or a namespace + remote_id seen before).
 */
export const itemUpdate: ApiRoute = {
  path: 'item/update',
  methods: ['POST'],
  auth: 'user',
  handler({ hub, params, user }) {
    const { channel } = user();
    const req = updateRequest(hub, channel, params);
    const known = req.editId === undefined && req.external
      ? findItemByIconfig(hub.db, channel.channel_id, 'system', req.external.namespace, req.external.remoteId)
      : undefined;
    const editId = req.editId ?? known?.id;
    const item = editId !== undefined ? editItem(hub, channel, editId, req.edit) : createItem(hub, channel, req.post);
    return { success: true, item_id: String(item.id), item: itemRecord(item) };
  },
};
