import type { ApiRequest, ApiRoute } from '../../../../http/api.js';
import { badRequest, notFound } from '../../../../http/errors.js';
import { loadStatus } from '../../../../services/compat/statuses.js';
import { CONTENT_VERBS } from '../../../../services/verbs.js';
import { getItem, itemVisibleTo } from '../../../../store/items.js';
import { getNotification, markAllNotificationsSeen, markNotificationSeen, markThreadNotificationsSeen } from '../../../../store/notify.js';
import type { ItemRow } from '../../../../store/rows.js';
import { parseId } from '../../../../util/ids.js';
import { reply } from '../../reply.js';
import { statusesReply } from '../../status-replies.js';

const CONTENT = new Set<string>(CONTENT_VERBS);

/** The post or comment a notification is about: for a like, the item liked lives in its thread. */
function linkedItem(req: ApiRequest, iid: number, parent: number): ItemRow | undefined {
  const hash = req.user().channel.channel_hash;
  let item = iid ? getItem(req.hub.db, iid) : undefined;
  if (item && !CONTENT.has(item.verb)) item = parent ? getItem(req.hub.db, parent) : undefined;
  return item && !item.item_deleted && itemVisibleTo(req.hub.db, item.id, hash) ? item : undefined;
}

/**
 * Marks a notification seen (with the channel's other notifications about the same thread) and
 * answers the post it is about as a one-status timeline, or "success". id=all marks everything.
 */
function seen(req: ApiRequest) {
  const { channel } = req.user();
  const db = req.hub.db;
  const raw = req.params.str('id')?.trim() ?? '';
  if (raw === 'all') {
    markAllNotificationsSeen(db, channel.channel_id);
    return reply('success', 'result');
  }
  const id = parseId(raw);
  if (id === undefined) throw badRequest(raw ? 'Invalid argument: id must be a notification id or "all"' : 'Invalid argument: missing id');
  const n = getNotification(db, channel.channel_id, id);
  if (!n) throw notFound('Invalid argument: no such notification');
  // A message's notification is about the message alone (its post is the Mastodon API's business).
  const aboutItem = n.otype !== 'mail';
  db.transaction(() => {
    markNotificationSeen(db, channel.channel_id, id);
    if (aboutItem && n.parent) markThreadNotificationsSeen(db, channel.channel_id, n.parent);
  })();
  const item = aboutItem ? linkedItem(req, n.iid, n.parent) : undefined;
  if (!item) return reply('success', 'result');
  return statusesReply([loadStatus(req.hub, channel, item)]);
}

/** ext/notifications/seen (POST id). */
export const extNotificationsSeen: ApiRoute = { path: 'ext/notifications/seen', methods: ['POST'], auth: 'user', handler: seen };

/** The singular path Friendica actually routes. */
export const extNotificationSeen: ApiRoute = { path: 'ext/notification/seen', methods: ['POST'], auth: 'user', handler: seen };
