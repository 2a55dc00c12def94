import type { Hub } from '../hub-context.js';
import type { ChannelRow, ItemRow, PhotoRow } from '../store/rows.js';
import { getPhotoItem } from '../store/photos.js';
import { getThread, itemVisibleTo } from '../store/items.js';
import { conversationItems } from '../store/item-streams.js';
import { portableItem } from '../serializers/native/portable-item.js';

/** The photo's hidden item, if it exists, is not deleted and the viewer may see it. */
export function visiblePhotoItem(hub: Hub, viewer: string, photo: Pick<PhotoRow, 'uid' | 'resource_id'>): ItemRow | undefined {
  const item = getPhotoItem(hub.db, photo.uid, photo.resource_id);
  return item && !item.item_deleted && itemVisibleTo(hub.db, item.id, viewer) ? item : undefined;
}

/** The photo's item and its comments and activities that the viewer may see, oldest first. */
export function photoThread(hub: Hub, viewer: string, photo: Pick<PhotoRow, 'uid' | 'resource_id'>): ItemRow[] {
  const top = visiblePhotoItem(hub, viewer, photo);
  if (!top) return [];
  return getThread(hub.db, top.id).filter((i) => i.id === top.id || itemVisibleTo(hub.db, i.id, viewer));
}

/**
 * native photo: the photo's conversation in the portable item form — the backup form (with
 * access lists and flags) for the owner, the plain form for anybody else.
 */
export function photoConversation(hub: Hub, channel: ChannelRow, photo: PhotoRow): Record<string, unknown>[] {
  const top = visiblePhotoItem(hub, channel.channel_hash, photo);
  if (!top) return [];
  const own = photo.uid === channel.channel_id;
  return conversationItems(hub.db, top.id)
    .filter((r) => r.id === top.id || itemVisibleTo(hub.db, r.id, channel.channel_hash))
    .map((r) => portableItem(r, { mirror: own }));
}
