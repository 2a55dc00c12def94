import { Announce, Create, Delete, Like, PUBLIC_COLLECTION, Tombstone, Undo, Update } from '@fedify/vocab';
import type { Hub } from '../../hub-context.js';
import type { ChannelRow, ItemRow } from '../../store/rows.js';
import { getChannelByHash } from '../../store/channels.js';
import { getItem, getItemByMid } from '../../store/items.js';
import { getXchan } from '../../store/xchans.js';
import { sharedItemId } from '../../services/compat/statuses.js';
import { canView } from '../../services/acl.js';
import type { ItemEventKind } from '../../services/item-events.js';
import { VERB } from '../../services/verbs.js';
import { audienceOf } from '../audience.js';
import { channelActorId, objectIdOf } from '../ids.js';
import { itemNote } from '../objects.js';
import { instantOf } from '../note.js';
import { sendAs } from './send.js';

const isRemoteActor = (hub: Hub, hash: string) => getXchan(hub.db, hash)?.xchan_network === 'activitypub';

/**
 * The remote authors a comment or reaction in a thread concerns: the thread's author and the author
 * of the item it answers, when they are elsewhere and may see it.
 */
function threadPeople(hub: Hub, item: ItemRow, target: ItemRow | undefined): string[] {
  const top = item.item_thread_top ? undefined : getItem(hub.db, item.parent);
  const people = [top?.author_xchan, target?.author_xchan].filter((h): h is string => Boolean(h) && isRemoteActor(hub, h!));
  return [...new Set(people)].filter((h) => canView(hub.db, item, h));
}

/** The item an activity item (a like, a comment) is about. */
function targetOf(hub: Hub, item: ItemRow): ItemRow | undefined {
  return item.thr_parent && item.thr_parent !== item.mid ? getItemByMid(hub.db, item.thr_parent) : undefined;
}

async function deliverPost(hub: Hub, author: ChannelRow, kind: ItemEventKind, item: ItemRow): Promise<void> {
  const federation = hub.federation.federation!;
  const ctx = federation.createContext(new URL(hub.baseUrl), hub);
  const followersUri = ctx.getFollowersUri(author.channel_address);
  const audience = audienceOf(hub.db, item, followersUri);
  const to = [...audience.recipients, ...threadPeople(hub, item, targetOf(hub, item))];
  const actor = ctx.getActorUri(author.channel_address);
  const id = objectIdOf(hub.baseUrl, item);
  const opts = { followers: audience.followers };
  if (kind === 'delete') {
    await sendAs(hub, author, to, new Delete({ id: new URL(`${id}#delete`), actor, object: new Tombstone({ id: new URL(id) }), tos: audience.to, ccs: audience.cc }), opts);
    return;
  }
  const note = itemNote(ctx, kind === 'create' ? item : (getItem(hub.db, item.id) ?? item));
  if (!note) return;
  const Activity = kind === 'create' ? Create : Update;
  const activityId = kind === 'create' ? `${id}#create` : `${id}#update-${Date.now()}`;
  await sendAs(hub, author, to, new Activity({ id: new URL(activityId), actor, object: note, tos: audience.to, ccs: audience.cc, published: instantOf(item.created) }), opts);
}

async function deliverLike(hub: Hub, author: ChannelRow, kind: ItemEventKind, like: ItemRow): Promise<void> {
  const target = targetOf(hub, like);
  if (!target) return;
  const to = [...new Set([target.author_xchan, ...threadPeople(hub, like, target)])].filter((h) => isRemoteActor(hub, h));
  if (!to.length) return;
  const actor = new URL(channelActorId(hub.baseUrl, author.channel_address));
  const activity = new Like({ id: new URL(objectIdOf(hub.baseUrl, like)), actor, object: new URL(objectIdOf(hub.baseUrl, target)) });
  await sendAs(hub, author, to, kind === 'delete' ? new Undo({ id: new URL(`${objectIdOf(hub.baseUrl, like)}#undo`), actor, object: activity }) : activity);
}

async function deliverShare(hub: Hub, author: ChannelRow, kind: ItemEventKind, share: ItemRow): Promise<void> {
  const originalId = sharedItemId(share);
  const original = originalId !== undefined ? getItem(hub.db, originalId) : undefined;
  if (!original) return;
  const ctx = hub.federation.federation!.createContext(new URL(hub.baseUrl), hub);
  const actor = ctx.getActorUri(author.channel_address);
  const followers = ctx.getFollowersUri(author.channel_address);
  const remoteAuthor = isRemoteActor(hub, original.author_xchan) ? [original.author_xchan] : [];
  const announce = new Announce({
    id: new URL(objectIdOf(hub.baseUrl, share)),
    actor,
    object: new URL(objectIdOf(hub.baseUrl, original)),
    tos: [PUBLIC_COLLECTION],
    ccs: [followers, ...remoteAuthor.map((h) => new URL(h))],
    published: instantOf(share.created),
  });
  await sendAs(hub, author, remoteAuthor, kind === 'delete' ? new Undo({ id: new URL(`${objectIdOf(hub.baseUrl, share)}#undo`), actor, object: announce }) : announce, { followers: true });
}

/** The job that delivers an item written here (queued with the item, handled by the federation's queue). */
export const ITEM_JOB = 'hearth.item';

export interface ItemJob {
  type: typeof ITEM_JOB;
  kind: ItemEventKind;
  itemId: number;
}

const SENDERS: Record<string, (hub: Hub, author: ChannelRow, kind: ItemEventKind, item: ItemRow) => Promise<void>> = {
  [VERB.LIKE]: deliverLike,
  [VERB.SHARE]: deliverShare,
  [VERB.POST]: deliverPost,
};

/**
 * The delivery job of an item a channel of the hub made, edited or deleted, or undefined when it
 * goes nowhere: posts, comments, likes and shares go to the remote part of their audience; items
 * from elsewhere are never sent on.
 */
export function itemJob(hub: Hub, kind: ItemEventKind, item: ItemRow): ItemJob | undefined {
  if (item.item_origin !== 1 || item.item_type !== 0 || item.item_hidden || !SENDERS[item.verb]) return undefined;
  if (!getChannelByHash(hub.db, item.author_xchan)) return undefined;
  return { type: ITEM_JOB, kind, itemId: item.id };
}

/** Queues the item's activity for its remote audience (its job's handler). */
export async function deliverItem(hub: Hub, job: ItemJob): Promise<void> {
  const item = getItem(hub.db, job.itemId);
  // Deleted before its turn came: its Delete follows, and nothing else is sent.
  if (!item || (job.kind !== 'delete' && item.item_deleted)) return;
  const author = getChannelByHash(hub.db, item.author_xchan);
  const send = SENDERS[item.verb];
  if (author && send) await send(hub, author, job.kind, item);
}
