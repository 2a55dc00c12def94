import type { Hub } from '../../hub-context.js';
import { MAX_BODY } from '../../services/items.js';
import { publishedCounts } from '../../services/published-counts.js';
import { HEARTH_VERSION } from '../../version.js';
import type { InstanceFacts } from '../../serializers/mastodon/instance.js';
import { vapidKeys } from '../../services/web-push.js';

/** Mastodon's API level the hub answers, and its own version beside it (apps parse the first). */
export const MASTODON_VERSION = `4.3.0 (compatible; Hearth ${HEARTH_VERSION})`;

/** The image types media uploads decode (anything else is refused with 422). */
export const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'image/tiff'];

export function instanceFacts(hub: Hub): InstanceFacts {
  const counts = publishedCounts(hub.db);
  return {
    domain: new URL(hub.baseUrl).host,
    baseUrl: hub.baseUrl,
    title: 'Hearth',
    version: MASTODON_VERSION,
    maxCharacters: MAX_BODY,
    maxUploadBytes: hub.limits.maxUploadBytes,
    imageTypes: MEDIA_TYPES,
    contact: null,
    users: counts.channels,
    statuses: counts.posts,
    vapidKey: vapidKeys(hub.db).publicKey,
  };
}
