import type { Hub } from '../hub-context.js';
import type { ChannelRow, ItemRow, XchanRow } from '../store/rows.js';
import { getChannel, getChannelByHash } from '../store/channels.js';
import { findActivity, getItem, insertItem, insertStoredItem, insertTerm, ITEM_DEFAULTS, markItemDeleted, setIconfig, touchThread, updateItem, type NewItem } from '../store/items.js';
import { SHARE_ICONFIG } from '../store/item-shares.js';
import { TERM_HASHTAG, TERM_MENTION } from '../content/terms.js';
import { bodyToText } from '../content/render.js';
import { fromAclString, toAclString, uuid } from '../util/ids.js';
import { nowDb } from '../util/time.js';
import { isPublicAcl, PUBLIC_ACL, type AccessLists } from './acl.js';
import { emitItemEvent } from './item-events.js';
import { fileDirectMessage } from './mailbox.js';
import { itemRendering } from './item-html.js';
import { canComment, notifyMentions, notifySubscribers } from './items.js';
import { notify, NOTIFY } from './notifications.js';
import { EXCLUSIVE_GROUPS, OBJ, VERB } from './verbs.js';
import type { Visibility } from './mastodon/visibility.js';

/**
 * Posts, comments, likes and shares written by people on other servers, stored as the hub's own
 * are: the same item rows, audiences, terms and notifications, so every API and the UI show them.
 * The federation (federation/inbox) has checked who sent them; here is what they become.
 */

export class ReceivedRefused extends Error {}

export interface ReceivedPost {
  /** The channel of this hub that keeps a new thread (one of its recipients). */
  keeper: ChannelRow;
  author: XchanRow;
  /** Its ActivityPub id, which is its message id here. */
  mid: string;
  html: string;
  title: string;
  summary: string;
  sensitive: boolean;
  created: string;
  url: string;
  /** Who may see a new thread (a comment takes its thread's). */
  acl: AccessLists;
  visibility: Visibility;
  /** The item of this hub it answers, if it is a comment. */
  replyTo?: ItemRow;
  /** Identities it mentions (xchan hashes). */
  mentions: string[];
  hashtags: string[];
}

/** Someone elsewhere wrote a post, or a comment in a thread of this hub. */
export function receivePost(hub: Hub, p: ReceivedPost): ItemRow {
  const db = hub.db;
  const now = nowDb();
  const top = p.replyTo && (p.replyTo.item_thread_top ? p.replyTo : getItem(db, p.replyTo.parent));
  if (p.replyTo && (!top || top.item_deleted)) throw new ReceivedRefused('the thread it answers is gone');
  if (top && !canComment(hub, p.author.xchan_hash, top)) throw new ReceivedRefused('comments on that thread are closed to its author');
  const keeper = top ? getChannel(db, top.uid) : p.keeper;
  if (!keeper) throw new ReceivedRefused('no channel keeps that thread');
  const acl = top ? { allow_cid: top.allow_cid, allow_gid: top.allow_gid, deny_cid: top.deny_cid, deny_gid: top.deny_gid } : p.acl;
  const row: NewItem = {
    ...ITEM_DEFAULTS,
    uuid: uuid(),
    mid: p.mid,
    aid: keeper.channel_account_id,
    uid: keeper.channel_id,
    parent: top?.id ?? 0,
    parent_mid: top?.mid ?? p.mid,
    thr_parent: p.replyTo?.mid ?? p.mid,
    created: p.created,
    edited: p.created,
    commented: p.created,
    received: now,
    changed: now,
    owner_xchan: top?.owner_xchan ?? p.author.xchan_hash,
    author_xchan: p.author.xchan_hash,
    mimetype: 'text/html',
    title: p.title,
    summary: p.summary,
    body: p.html,
    ...itemRendering(db, p.html, 'text/html'),
    verb: VERB.POST,
    obj_type: top ? OBJ.COMMENT : OBJ.NOTE,
    llink: p.url || p.mid,
    plink: p.url || p.mid,
    public_policy: top?.public_policy ?? '',
    comment_policy: top?.comment_policy ?? 'contacts',
    ...acl,
    item_private: top ? top.item_private : isPublicAcl(acl) ? 0 : 1,
    item_origin: 0,
    item_unseen: 1,
    item_wall: top ? top.item_wall : 0,
    item_thread_top: top ? 0 : 1,
    item_nsfw: p.sensitive ? 1 : 0,
  };
  const item = db.transaction(() => {
    const stored = insertStoredItem(db, row, { ownThread: !top });
    if (top) touchThread(db, top.id, now);
    if (!top && p.visibility !== 'public' && p.visibility !== 'private') setIconfig(db, stored.id, 'mastodon', 'visibility', p.visibility);
    if (!top && p.visibility === 'private') setIconfig(db, stored.id, 'mastodon', 'visibility', 'private');
    for (const hash of p.mentions) insertTerm(db, { aid: stored.aid, uid: stored.uid, oid: stored.id, ttype: TERM_MENTION, term: hash, url: hash, termHash: hash });
    for (const tag of p.hashtags) insertTerm(db, { aid: stored.aid, uid: stored.uid, oid: stored.id, ttype: TERM_HASHTAG, term: tag, url: `${hub.baseUrl}/search?tag=${encodeURIComponent(tag)}` });
    // A direct message's recipients here are told of it as a message, once.
    const notified = fileDirectMessage(hub, stored, top ?? stored);
    const name = p.author.xchan_name || 'Someone';
    if (top) {
      const snippet = bodyToText(p.html, 'text/html').slice(0, 80);
      const owner = getChannelByHash(db, top.author_xchan);
      if (owner && !notified.has(owner.channel_id) && notify(hub, { uid: owner.channel_id, ntype: NOTIFY.COMMENT, actor: p.author.xchan_hash, msg: `${name} commented on your post: ${snippet}`, link: stored.llink, iid: stored.id, parent: top.id, verb: stored.verb, otype: 'item' })) notified.add(owner.channel_id);
    }
    notifyMentions(hub, stored, p.mentions, p.author, notified);
    if (!top) notifySubscribers(hub, stored, p.author, notified);
    return stored;
  })();
  emitItemEvent(hub, 'create', item);
  return item;
}

/**
 * A post that came for one channel of the hub came for more (a second follower here, a second
 * recipient of a message): they may see it too, and a message is in their mailboxes.
 */
export function widenAudience(hub: Hub, item: ItemRow, hashes: string[]): void {
  if (isPublicAcl(item) && !item.item_private) return;
  const allowed = fromAclString(item.allow_cid);
  const added = hashes.filter((h) => !allowed.includes(h));
  if (!added.length) return;
  hub.db.transaction(() => {
    updateItem(hub.db, item.id, { allow_cid: toAclString([...allowed, ...added]) });
    const widened = getItem(hub.db, item.id)!;
    if (widened.item_thread_top) fileDirectMessage(hub, widened, widened, { only: added });
  })();
}

/** Its author edited a post or comment. */
export function receiveEdit(hub: Hub, item: ItemRow, e: { html: string; title: string; summary: string; sensitive: boolean; edited: string }): ItemRow {
  const db = hub.db;
  updateItem(db, item.id, {
    body: e.html,
    mimetype: 'text/html',
    ...itemRendering(db, e.html, 'text/html'),
    title: e.title,
    summary: e.summary,
    item_nsfw: e.sensitive ? 1 : 0,
    edited: e.edited,
    changed: nowDb(),
  });
  const edited = getItem(db, item.id)!;
  emitItemEvent(hub, 'update', edited);
  return edited;
}

/** Its author deleted a post, comment, like or share (a thread top takes its thread along). */
export function receiveDelete(hub: Hub, item: ItemRow): void {
  if (item.item_deleted) return;
  markItemDeleted(hub.db, item, nowDb());
  emitItemEvent(hub, 'delete', item);
}

/**
 * Someone elsewhere likes (or stops liking) an item of the hub: an activity item in its thread, as a
 * local like is. `mid` is the Like's id. Returns whether anything changed.
 */
export function receiveReaction(hub: Hub, actor: XchanRow, target: ItemRow, verb: string, on: boolean, mid: string): boolean {
  const db = hub.db;
  const top = target.item_thread_top ? target : getItem(db, target.parent);
  if (!top || top.item_deleted || target.item_deleted) throw new ReceivedRefused('that item is gone');
  const existing = findActivity(db, target.uid, target.mid, actor.xchan_hash, verb);
  if (!on) {
    if (!existing) return false;
    receiveDelete(hub, existing);
    return true;
  }
  if (existing) return false;
  if (!canComment(hub, actor.xchan_hash, top)) throw new ReceivedRefused('reactions to that item are not allowed for its sender');
  const now = nowDb();
  const like = db.transaction(() => {
    for (const group of EXCLUSIVE_GROUPS) {
      if (!group.includes(verb)) continue;
      for (const other of group) {
        const o = other !== verb ? findActivity(db, target.uid, target.mid, actor.xchan_hash, other) : undefined;
        if (o) markItemDeleted(db, o, now);
      }
    }
    const id = insertItem(db, {
      ...ITEM_DEFAULTS,
      uuid: uuid(), mid, aid: top.aid, uid: target.uid, parent: top.id, parent_mid: top.mid, thr_parent: target.mid,
      created: now, edited: now, commented: now, received: now, changed: now,
      owner_xchan: top.owner_xchan, author_xchan: actor.xchan_hash, verb, obj_type: target.item_thread_top ? OBJ.NOTE : OBJ.COMMENT,
      obj: JSON.stringify({ type: 'Note', id: target.mid, link: target.plink }),
      llink: mid, plink: mid,
      allow_cid: top.allow_cid, allow_gid: top.allow_gid, deny_cid: top.deny_cid, deny_gid: top.deny_gid, item_private: top.item_private,
      public_policy: top.public_policy, comment_policy: top.comment_policy, item_origin: 0, item_wall: top.item_wall,
    });
    touchThread(db, top.id, now);
    const authorChannel = getChannelByHash(db, target.author_xchan);
    if (authorChannel && verb === VERB.LIKE) notify(hub, { uid: authorChannel.channel_id, ntype: NOTIFY.LIKE, actor: actor.xchan_hash, msg: `${actor.xchan_name} likes your post`, link: target.llink, iid: id, parent: top.id, verb, otype: 'item' });
    return getItem(db, id)!;
  })();
  emitItemEvent(hub, 'create', like);
  return true;
}

/** Someone elsewhere shares (boosts) a public post the hub has: a share item of theirs, as statuses/retweet makes. */
export function receiveShare(hub: Hub, keeper: ChannelRow, actor: XchanRow, original: ItemRow, mid: string, created: string): ItemRow | undefined {
  const db = hub.db;
  if (original.item_private || !isPublicAcl(original) || original.item_deleted) throw new ReceivedRefused('only public posts are shared');
  const body = `[share message_id="${original.mid.replace(/["\]\[]/g, '')}"][/share]`;
  const now = nowDb();
  const share = db.transaction(() => {
    const stored = insertStoredItem(db, {
      ...ITEM_DEFAULTS,
      uuid: uuid(), mid, aid: keeper.channel_account_id, uid: keeper.channel_id, parent: 0, parent_mid: mid, thr_parent: mid,
      created, edited: created, commented: created, received: now, changed: now,
      owner_xchan: actor.xchan_hash, author_xchan: actor.xchan_hash, mimetype: 'text/bbcode', title: original.title, body,
      ...itemRendering(db, body, 'text/bbcode'),
      verb: VERB.SHARE, obj_type: OBJ.NOTE, obj: JSON.stringify({ type: 'Note', id: original.mid, item_id: original.id, link: original.plink }),
      llink: mid, plink: mid, ...PUBLIC_ACL, item_origin: 0, item_thread_top: 1, comment_policy: 'contacts',
    }, { ownThread: true });
    setIconfig(db, stored.id, SHARE_ICONFIG.cat, SHARE_ICONFIG.k, String(original.id));
    const authorChannel = getChannelByHash(db, original.author_xchan);
    if (authorChannel) notify(hub, { uid: authorChannel.channel_id, ntype: NOTIFY.LIKE, actor: actor.xchan_hash, msg: `${actor.xchan_name} shared your post`, link: original.llink, iid: original.id, parent: original.parent, verb: VERB.SHARE, otype: 'item' });
    return stored;
  })();
  emitItemEvent(hub, 'create', share);
  return share;
}
