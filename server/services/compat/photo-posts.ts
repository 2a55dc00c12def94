import type { Hub } from '../../hub-context.js';
import type { ChannelRow, StatusItemRow } from '../../store/rows.js';
import { searchTimeline, type TimelinePage } from '../../store/item-timelines.js';
import { CONTENT_VERBS } from '../verbs.js';

/**
 * The posts and comments the channel can see that show one of these photos (their text holds the
 * photo's resource id in its image and page URLs): what deleting the photos would leave without them.
 */
export function postsShowingPhotos(hub: Hub, channel: ChannelRow, resourceIds: string[], page: TimelinePage): StatusItemRow[] {
  if (!resourceIds.length) return [];
  const match = resourceIds.map((id) => `"${id}"`).join(' OR ');
  return searchTimeline(hub.db, match, channel.channel_hash, CONTENT_VERBS, page);
}
