import type { Hub } from '../../hub-context.js';
import type { ChannelRow, ItemRow } from '../../store/rows.js';
import { setStarred } from '../../store/items.js';
import { setForeignStar } from '../../store/item-stars.js';

/**
 * Stars (favorites/create) or unstars an item for a channel. Items of the channel's own threads
 * carry the star in item_starred; items living in another channel keep a per-channel star, so that
 * one channel's favorite never shows up as another's.
 */
export function setStar(hub: Hub, channel: ChannelRow, item: ItemRow, on: boolean): void {
  if (item.uid === channel.channel_id) setStarred(hub.db, item.id, on);
  else setForeignStar(hub.db, channel.channel_id, item.id, on);
}
