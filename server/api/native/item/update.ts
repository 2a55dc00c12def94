import type { ApiRoute } from '../../../http/api.js';
import { submitItem } from '../../../services/item-submit.js';
import { itemRecord } from '../../../serializers/native/item.js';
import { updateRequest } from './input.js';

/**
 * item/update: creates a post, a comment (parent / parent_mid) or other item kinds from form
 * input, or edits one of the channel's own items (post_id, or a namespace + remote_id seen
 * before). Uploaded `media` files are stored and linked from the body.
 */
export const itemUpdate: ApiRoute = {
  path: 'item/update',
  methods: ['POST'],
  auth: 'user',
  async handler({ hub, params, user }) {
    const { channel } = user();
    const item = await submitItem(hub, channel, updateRequest(hub, channel, params));
    return { success: true, item_id: String(item.id), item: itemRecord(item) };
  },
};
