import { Announce, Like, Undo } from '@fedify/vocab';
import type { InboxContext } from '@fedify/fedify';
import type { Hub } from '../../hub-context.js';
import { getChannel } from '../../store/channels.js';
import { getItemByMid } from '../../store/items.js';
import { receiveDelete, receiveReaction, receiveShare } from '../../services/received-items.js';
import { VERB } from '../../services/verbs.js';
import { nowDb, toDbDate } from '../../util/time.js';
import { itemByObjectId } from '../known-objects.js';
import { actorById } from '../remote-actors.js';

/** Someone elsewhere likes an item of the hub (one of its own, or one it received). */
export async function onLike(ctx: InboxContext<Hub>, like: Like): Promise<void> {
  if (!like.actorId || !like.id) return;
  const target = itemByObjectId(ctx.data.db, ctx.data.baseUrl, like.objectId?.href);
  if (!target) return;
  const actor = await actorById(ctx, like.actorId.href);
  receiveReaction(ctx.data, actor, target, VERB.LIKE, true, like.id.href);
}

/** Someone elsewhere shares a public post the hub has. */
export async function onAnnounce(ctx: InboxContext<Hub>, announce: Announce): Promise<void> {
  if (!announce.actorId || !announce.id || announce.id.origin !== announce.actorId.origin) return;
  const db = ctx.data.db;
  if (getItemByMid(db, announce.id.href)) return;
  const original = itemByObjectId(db, ctx.data.baseUrl, announce.objectId?.href);
  const keeper = original && getChannel(db, original.uid);
  if (!original || !keeper) return;
  const actor = await actorById(ctx, announce.actorId.href);
  const when = announce.published ? toDbDate(new Date(announce.published.epochMilliseconds)) : nowDb();
  receiveShare(ctx.data, keeper, actor, original, announce.id.href, when);
}

/** Undo of a like or a share the same actor sent before. */
export async function onUndoReaction(ctx: InboxContext<Hub>, undo: Undo, inner: Like | Announce): Promise<void> {
  const sender = undo.actorId?.href;
  if (!sender || inner.actorId?.href !== sender) return;
  const db = ctx.data.db;
  if (inner instanceof Announce) {
    const share = inner.id ? getItemByMid(db, inner.id.href) : undefined;
    if (share && share.author_xchan === sender) receiveDelete(ctx.data, share);
    return;
  }
  const target = itemByObjectId(db, ctx.data.baseUrl, inner.objectId?.href);
  if (!target) return;
  receiveReaction(ctx.data, await actorById(ctx, sender), target, VERB.LIKE, false, inner.id?.href ?? '');
}
