import { Note } from '@fedify/vocab';
import type { Federation, RequestContext } from '@fedify/fedify';
import type { Hub } from '../hub-context.js';
import type { ItemRow } from '../store/rows.js';
import { getChannelByHash } from '../store/channels.js';
import { getItemByMid } from '../store/items.js';
import { getItemByUuid } from '../store/federation.js';
import { canView } from '../services/acl.js';
import { CONTENT_VERBS } from '../services/verbs.js';
import { audienceOf } from './audience.js';
import { objectIdOf } from './ids.js';
import { noteOf } from './note.js';

const CONTENT = new Set<string>(CONTENT_VERBS);

/** A post or comment of the hub that may be served as a Note at all (not deleted, hidden or a photo's). */
function servable(item: ItemRow | undefined): item is ItemRow {
  return Boolean(item && CONTENT.has(item.verb) && !item.item_deleted && !item.item_hidden && !item.item_unpublished && !item.item_delayed && !item.item_blocked && item.item_type === 0);
}

/** The id of the item an item answers, when it is a comment. */
export function inReplyToOf(hub: Hub, item: ItemRow): string | undefined {
  if (item.item_thread_top || !item.thr_parent) return undefined;
  const parent = getItemByMid(hub.db, item.thr_parent);
  return parent ? objectIdOf(hub.baseUrl, parent) : /^https?:\/\//.test(item.thr_parent) ? item.thr_parent : undefined;
}

/** The Note of one of the hub's items, addressed as it was sent. */
export function itemNote(ctx: { data: Hub; getFollowersUri(nick: string): URL }, item: ItemRow): Note | undefined {
  const hub = ctx.data;
  const author = getChannelByHash(hub.db, item.author_xchan);
  if (!author) return undefined;
  const audience = audienceOf(hub.db, item, ctx.getFollowersUri(author.channel_address));
  return noteOf(hub.db, hub.baseUrl, item, audience, { inReplyTo: inReplyToOf(hub, item) });
}

/**
 * Posts and comments at /item/<uuid>, for any server that fetches them. Public ones are served to
 * anyone; the others only to a signed fetch by an actor in their audience.
 */
export function mountObjects(federation: Federation<Hub>): void {
  federation
    .setObjectDispatcher(Note, '/item/{uuid}', (ctx, { uuid }) => {
      const item = getItemByUuid(ctx.data.db, uuid);
      return servable(item) ? (itemNote(ctx, item) ?? null) : null;
    })
    .authorize(async (ctx: RequestContext<Hub>, { uuid }) => {
      const item = getItemByUuid(ctx.data.db, uuid);
      if (!servable(item)) return true; // answered 404 by the dispatcher
      if (canView(ctx.data.db, item, undefined)) return true;
      const signer = await ctx.getSignedKeyOwner();
      return Boolean(signer?.id && canView(ctx.data.db, item, signer.id.href));
    });
}
