import type { ApiRoute } from '../../../http/api.js';
import type { Db } from '../../../db/open.js';
import type { ItemRow } from '../../../store/rows.js';
import { getItem } from '../../../store/items.js';
import { unshareItem } from '../../../services/compat/share.js';
import { sharedItemId } from '../../../services/compat/statuses.js';
import { statusReply } from '../status-replies.js';
import { visibleStatus } from '../visible-status.js';

/** The live item a share embeds, when `item` is a share. */
function sharedOriginal(db: Db, item: ItemRow): ItemRow | undefined {
  const id = sharedItemId(item);
  const original = id !== undefined ? getItem(db, id) : undefined;
  return original && !original.item_deleted ? original : undefined;
}

/**
 * statuses/unretweet (also statuses/unretweet/:id): withdraws the caller's retweet of a status (named
 * by the original's id, or the retweet's own); answers the original, as Twitter does.
 */
export const statusesUnretweetRoute: ApiRoute = {
  path: 'statuses/unretweet',
  methods: ['POST'],
  auth: 'user',
  idParam: true,
  handler(req) {
    const me = req.user().channel;
    const named = visibleStatus(req);
    const original = (named.uid === me.channel_id ? sharedOriginal(req.hub.db, named) : undefined) ?? named;
    unshareItem(req.hub, me, original);
    return statusReply(req, getItem(req.hub.db, original.id)!);
  },
};
