import type { Hub } from '../hub-context.js';
import type { AttachRow } from '../store/rows.js';
import { getChannel } from '../store/channels.js';
import { getPhotoItem, getPhotoScales } from '../store/photos.js';
import { conversationItems } from '../store/item-streams.js';
import { attachWithContent } from '../serializers/native/attach.js';
import { photoRecord } from '../serializers/native/photo.js';
import { portableItem } from '../serializers/native/portable-item.js';
import { attachPath, readStored } from './file-access.js';

/**
 * file/export object for one of the channel's files or folders, as Hubzilla's importer reads it:
 * where to fetch bytes, the channel, the folder chain down to the record (content = storage
 * path), and for photos every scale (content = base64 of its bytes) and the photo's conversation.
 */
export async function fileExportObject(hub: Hub, row: AttachRow): Promise<Record<string, unknown>> {
  const owner = getChannel(hub.db, row.uid);
  const out: Record<string, unknown> = {
    fetch_url: `${hub.baseUrl}/getfile`,
    original_channel: owner?.channel_address ?? '',
    attach: attachPath(hub, row).map((r) => ({ ...attachWithContent(r, r.content), term: [] })),
  };
  if (row.is_photo) {
    const photos = [];
    for (const p of getPhotoScales(hub.db, row.hash)) photos.push(photoRecord(p, (await readStored(hub, p.content)).toString('base64')));
    if (photos.length) out.photo = photos;
    const item = getPhotoItem(hub.db, row.uid, row.hash);
    if (item && !item.item_deleted) out.item = conversationItems(hub.db, item.id).map((r) => portableItem(r, { mirror: true, chanviewBase: hub.baseUrl }));
  }
  return out;
}
