import type { ApiRoute } from '../../http/api.js';
import { photoRecord } from '../../serializers/native/photo.js';
import { photoConversation } from '../../services/photo-view.js';
import { readStored, visiblePhoto } from '../../services/file-access.js';

/**
 * photo: one scale of a photo (photo_id = resource id, scale default 0) with its bytes base64 in
 * content, plus the photo's item and its comments. Other channels' photos when their ACL admits.
 */
export const photo: ApiRoute = {
  path: 'photo',
  methods: ['GET', 'POST'],
  auth: 'user',
  async handler({ hub, params, user }) {
    const channel = user().channel;
    const row = visiblePhoto(hub, channel.channel_hash, params.required('photo_id'), params.int('scale', { min: 0, max: 9 }) ?? 0);
    const out: Record<string, unknown> = { photo: photoRecord(row, (await readStored(hub, row.content)).toString('base64')) };
    const items = photoConversation(hub, channel, row);
    if (items.length) out.item = items;
    return out;
  },
};
