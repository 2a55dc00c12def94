import type { Hub } from '../hub-context.js';
import type { ItemRow } from '../store/rows.js';

export type ItemEventKind = 'create' | 'update' | 'delete';

/**
 * Queues the item's delivery to other servers (within the caller's transaction, which should be
 * the one that writes the item), and tells live listeners (the Mastodon streams) that an item was
 * written, edited or deleted, once the surrounding transaction is over; a listener reads the item
 * again and finds nothing when the transaction was rolled back. Event 'item' (kind, item as it was
 * written or before deletion).
 */
export function emitItemEvent(hub: Hub, kind: ItemEventKind, item: ItemRow): void {
  hub.federation.queueItem(kind, item);
  if (hub.events.listenerCount('item') === 0) return;
  setImmediate(() => hub.events.emit('item', kind, item));
}
