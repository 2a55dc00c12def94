import type { Hub } from '../hub-context.js';
import type { ChannelRow } from '../store/rows.js';
import { channelStreamThreadIds, conversationItems, networkThreadIds, threadsItems, withRelations, type NetworkQuery } from '../store/item-streams.js';
import { getItem, getItemByMid, itemVisibleTo } from '../store/items.js';
import { portableItem } from '../serializers/native/portable-item.js';
import { notFound } from '../http/errors.js';
import { nowDb } from '../util/time.js';

/** channel/stream collects at most this many threads, as Hubzilla's feed does. */
const MAX_CHANNEL_STREAM_THREADS = 201;

/** channel/stream: the channel's wall threads active since `mindate`, oldest first, flattened. */
export function channelStream(hub: Hub, channel: ChannelRow, mindate: string) {
  const now = nowDb();
  const ids = channelStreamThreadIds(hub.db, channel.channel_id, mindate, now, MAX_CHANNEL_STREAM_THREADS);
  return threadsItems(hub.db, ids, now).map((row) => portableItem(row, { mirror: false }));
}

export type NetworkFilters = Omit<NetworkQuery, 'uid' | 'observer' | 'now'> & { topOnly?: boolean };

/** network/stream: one page of the threads the channel can see, each top followed by its replies. */
export function networkStream(hub: Hub, channel: ChannelRow, filters: NetworkFilters) {
  const now = nowDb();
  const { topOnly, ...query } = filters;
  const ids = networkThreadIds(hub.db, { ...query, uid: channel.channel_id, observer: channel.channel_hash, now });
  const rows = threadsItems(hub.db, ids, now);
  // top: the first shown item of each thread.
  const shown = topOnly ? rows.filter((row, i) => i === 0 || rows[i - 1]!.parent !== row.parent) : rows;
  return shown.map((row) => portableItem(row, { mirror: false }));
}

/**
 * item/full: the whole conversation an item of this channel belongs to, in the backup form.
 * Other channels' conversations are not the channel's to export (404), except the channel's own
 * comments in them: on Hubzilla the commenter keeps a copy of what it wrote, and the owner's UI
 * edits a comment from its source. Those come alone, while the channel may still see them.
 */
export function fullConversation(hub: Hub, channel: ChannelRow, ref: { id?: number; mid?: string }) {
  const item = ref.id !== undefined ? getItem(hub.db, ref.id) : ref.mid !== undefined ? getItemByMid(hub.db, ref.mid) : undefined;
  if (!item || item.item_deleted) throw notFound('item not found');
  if (item.uid === channel.channel_id) return conversationItems(hub.db, item.parent).map((row) => portableItem(row, { mirror: true }));
  if (item.author_xchan !== channel.channel_hash || !itemVisibleTo(hub.db, item.id, channel.channel_hash)) throw notFound('item not found');
  return withRelations(hub.db, [item]).map((row) => portableItem(row, { mirror: false }));
}
