import type { Hub } from '../hub-context.js';
import type { ChannelRow, ItemRow, XchanRow } from '../store/rows.js';
import { getChannel, getChannelByHash, getChannelByNick, setLastPost } from '../store/channels.js';
import { postSubscribers } from '../store/connections.js';
import {
  deleteItemTerms, findActivity, getItem, getItemByMid, getItemTerms, insertItem, insertStoredItem, insertTerm, itemVisibleTo, ITEM_DEFAULTS,
  markItemDeleted, setIconfig, touchThread, updateItem, type NewItem,
} from '../store/items.js';
import { getXchan, getXchanByAddress } from '../store/xchans.js';
import { emitItemEvent } from './item-events.js';
import { bodyToText, isSupportedMimetype } from '../content/render.js';
import { itemRendering } from './item-html.js';
import { applyThreadAudience } from './thread-audience.js';
import { findTerms, TERM_CATEGORY, TERM_HASHTAG, TERM_MENTION } from '../content/terms.js';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import { NULL_DATE, nowDb, toDbDate } from '../util/time.js';
import { uuid } from '../util/ids.js';
import { canView, isPublicAcl, PUBLIC_ACL, type AccessLists } from './acl.js';
import { notify, NOTIFY } from './notifications.js';
import { fileDirectMessage, isDirectThread } from './mailbox.js';
import { isAllowed } from './permissions.js';
import { signInBackground, signNow } from './signer.js';
import { EXCLUSIVE_GROUPS, OBJ, VERB } from './verbs.js';

export interface PostInput {
  body: string;
  title?: string;
  summary?: string;
  mimetype?: string;
  /** Makes the item a comment on this item (any item of the thread). */
  parentId?: number;
  parentMid?: string;
  acl?: AccessLists;
  location?: string;
  coord?: string;
  app?: string;
  categories?: string[];
  verb?: string;
  objType?: string;
  obj?: string;
  tgtType?: string;
  target?: string;
  /** Creation time (UTC 'YYYY-MM-DD HH:MM:SS'); now when absent. */
  created?: string;
  expires?: string;
  consensus?: boolean;
  nocomment?: boolean;
  /** item_type: 0 post, 3 webpage, 1 block, 2 layout… */
  itemType?: number;
  pagetitle?: string;
  layoutMid?: string;
  /** Message id; generated when absent. */
  messageId?: string;
  /** The item's uuid; generated when absent (given when something written before the item names it). */
  uuid?: string;
  /** Author xchan when not the channel itself (a wall post by someone else). */
  author?: string;
  plink?: string;
  hidden?: boolean;
  resourceType?: string;
  resourceId?: string;
  /** item.attach JSON. */
  attach?: string;
  /** Extra iconfig rows. */
  iconfig?: { cat: string; k: string; v: string; sharing?: number }[];
  /** The body's signature made ahead (signAhead); used only if it is for this body and author. */
  signed?: PreSigned;
  /** Identities (xchan hashes) the item mentions besides those its body names (a message's recipient). */
  mentions?: string[];
  /** The subject of a direct message (its mailbox copies' title). */
  subject?: string;
}

export const MAX_BODY = 1_000_000;
const MAX_TITLE = 191;

/** A body signed by a channel ahead of writing the item. */
export interface PreSigned {
  channelHash: string;
  body: string;
  sig: string;
}

/** Signs a body away from the event loop (signer.ts). Undefined for a channel without a key. */
export async function signAhead(channel: ChannelRow, body: string): Promise<PreSigned | undefined> {
  if (!channel.channel_prvkey) return undefined;
  return { channelHash: channel.channel_hash, body, sig: 'sha256.' + (await signInBackground(channel.channel_prvkey, body)) };
}

function sign(channel: ChannelRow | undefined, body: string): string {
  if (!channel?.channel_prvkey) return '';
  return 'sha256.' + signNow(channel.channel_prvkey, body);
}

export function itemLinks(hub: Hub, ownerNick: string, mid: string) {
  return {
    llink: `${hub.baseUrl}/display/${mid}`,
    plink: `${hub.baseUrl}/channel/${ownerNick}/?f=&mid=${mid}`,
  };
}

function newMid(hub: Hub, messageId: string | undefined): string {
  if (!messageId) return `${uuid()}@${hub.hostname}`;
  if (messageId.length > 255 || /[\s<>]/.test(messageId)) throw badRequest('message_id is not a valid message id');
  return messageId.includes('@') || messageId.includes('://') ? messageId : `${messageId}@${hub.hostname}`;
}

/**
 * Whether `actor` may comment on (or react to) the thread whose top is `top`: its owner always;
 * anyone else who may see it, unless the owner closed the post's comments, or restricted comments
 * on the channel (the permission post_comments, "anyone" by default, looked up now). Hubzilla's
 * per-post policy 'self' closes the post too. Blocked and ignored connections may not.
 */
export function canComment(hub: Hub, actor: string, top: ItemRow): boolean {
  const owner = getChannel(hub.db, top.uid);
  if (!owner) return false;
  if (owner.channel_hash === actor) return true;
  if (top.item_nocomment) return false;
  if (top.comments_closed !== NULL_DATE && top.comments_closed <= nowDb()) return false;
  if (!itemVisibleTo(hub.db, top.id, actor)) return false;
  if (top.comment_policy === 'self') return false;
  return isAllowed(hub.db, owner, actor, 'post_comments');
}

/** Resolves the item a comment refers to, as seen by `actor`; 404 when missing or invisible. */
export function resolveParent(hub: Hub, actor: string, ref: { id?: number; mid?: string }): ItemRow {
  const item = ref.id !== undefined ? getItem(hub.db, ref.id) : ref.mid ? getItemByMid(hub.db, ref.mid) : undefined;
  if (!item || item.item_deleted || !itemVisibleTo(hub.db, item.id, actor)) throw notFound('parent item not found');
  return item;
}

function storeTerms(hub: Hub, item: ItemRow, categories: string[], ownerUrl: string, also: string[] = []): string[] {
  const { mentions, hashtags } = findTerms(item.body);
  const mentioned: string[] = [];
  const mention = (x: XchanRow, term: string) => {
    if (mentioned.includes(x.xchan_hash)) return;
    insertTerm(hub.db, { aid: item.aid, uid: item.uid, oid: item.id, ttype: TERM_MENTION, term, url: x.xchan_url, termHash: x.xchan_hash });
    mentioned.push(x.xchan_hash);
  };
  for (const m of mentions) {
    const [nick, host] = m.split('@');
    // nick@host names someone elsewhere the hub knows, or a channel of this hub with or without
    // the port (alice@127.0.0.1:8480).
    const known = host ? getXchanByAddress(hub.db, m) : undefined;
    if (known && !known.xchan_deleted && !getChannelByHash(hub.db, known.xchan_hash)) {
      mention(known, known.xchan_addr);
      continue;
    }
    if (host && host.replace(/:\d+$/, '') !== hub.hostname.toLowerCase()) continue;
    const ch = getChannelByNick(hub.db, nick!);
    if (!ch || ch.channel_removed) continue;
    const x = getXchan(hub.db, ch.channel_hash);
    if (x) mention(x, ch.channel_address);
  }
  for (const hash of also) {
    const x = getXchan(hub.db, hash);
    if (x && !x.xchan_deleted) mention(x, getChannelByHash(hub.db, hash)?.channel_address ?? x.xchan_addr);
  }
  for (const tag of hashtags) insertTerm(hub.db, { aid: item.aid, uid: item.uid, oid: item.id, ttype: TERM_HASHTAG, term: tag, url: `${hub.baseUrl}/search?tag=${encodeURIComponent(tag)}` });
  for (const cat of categories) insertTerm(hub.db, { aid: item.aid, uid: item.uid, oid: item.id, ttype: TERM_CATEGORY, term: cat, url: `${ownerUrl}?f=&cat=${encodeURIComponent(cat)}` });
  return mentioned;
}

function checkContent(input: { body: string; title?: string; mimetype?: string }) {
  if (input.body.length > MAX_BODY) throw badRequest(`body is too long (at most ${MAX_BODY} characters)`);
  if ((input.title ?? '').length > MAX_TITLE) throw badRequest(`title is too long (at most ${MAX_TITLE} characters)`);
  if (input.mimetype && !isSupportedMimetype(input.mimetype)) throw badRequest(`unsupported mimetype ${input.mimetype}; use text/bbcode, text/markdown or text/plain`);
}

/**
 * Tells the mentioned channels, except those told about the item already (a comment on their
 * post): one notification each. Adds those told to `notified`.
 */
export function notifyMentions(hub: Hub, item: ItemRow, mentioned: string[], author: XchanRow | undefined, notified: Set<number> = new Set()) {
  const actorName = author?.xchan_name ?? 'Someone';
  for (const hash of mentioned) {
    if (hash === item.author_xchan) continue;
    const ch = getChannelByHash(hub.db, hash);
    if (!ch || notified.has(ch.channel_id) || !canView(hub.db, item, hash)) continue;
    if (notify(hub, { uid: ch.channel_id, ntype: NOTIFY.TAGSELF, actor: item.author_xchan, msg: `${actorName} mentioned you in a post`, link: item.llink, iid: item.id, parent: item.parent, verb: item.verb, otype: 'item', known: { channel: ch, actor: author } })) notified.add(ch.channel_id);
  }
}

/** Tells the channels that asked to hear of the author's posts, if they may see this one and were not told already. */
export function notifySubscribers(hub: Hub, item: ItemRow, author: XchanRow | undefined, notified: ReadonlySet<number>) {
  for (const uid of postSubscribers(hub.db, item.author_xchan)) {
    const ch = getChannel(hub.db, uid);
    if (!ch || notified.has(uid) || ch.channel_hash === item.author_xchan || !canView(hub.db, item, ch.channel_hash)) continue;
    notify(hub, { uid, ntype: NOTIFY.POST, actor: item.author_xchan, msg: `${author?.xchan_name ?? 'Someone'} posted`, link: item.llink, iid: item.id, parent: item.id, verb: item.verb, otype: 'item', known: { channel: ch, actor: author } });
  }
}

/**
 * Creates a post (on the channel's own wall), or a comment when a parent is given (stored in the
 * thread owner's channel, inheriting the thread's audience). Stores terms and notifies those
 * concerned. Runs in one transaction.
 */
export function createItem(hub: Hub, channel: ChannelRow, input: PostInput): ItemRow {
  checkContent(input);
  const db = hub.db;
  const now = nowDb();
  const actor = input.author ?? channel.channel_hash;
  // Without federation a channel posts only as itself; visibility and comment rights below are then the caller's.
  if (input.author && input.author !== channel.channel_hash) throw forbidden('remote_xchan: this channel may post only as itself');

  let top: ItemRow | undefined;
  let replyTo: ItemRow | undefined;
  if (input.parentId !== undefined || input.parentMid) {
    replyTo = resolveParent(hub, actor, { id: input.parentId, mid: input.parentMid });
    top = replyTo.item_thread_top ? replyTo : getItem(db, replyTo.parent);
    if (!top || top.item_deleted) throw notFound('parent item not found');
    if (!canComment(hub, actor, top)) throw forbidden('comments on this item are closed or not allowed for you');
  }
  const owner = top ? getChannel(db, top.uid) : channel;
  if (!owner) throw notFound('the channel of this thread no longer exists');
  const author = getXchan(db, actor);
  const mid = newMid(hub, input.messageId);
  // Generated ids are unique by construction; only a client's own message_id can collide.
  if (input.messageId && getItemByMid(db, mid)) throw badRequest('an item with this message_id already exists');
  const acl = top ? { allow_cid: top.allow_cid, allow_gid: top.allow_gid, deny_cid: top.deny_cid, deny_gid: top.deny_gid } : (input.acl ?? PUBLIC_ACL);
  const created = input.created ?? now;
  const mimetype = input.mimetype || 'text/bbcode';
  const links = itemLinks(hub, owner.channel_address, mid);
  const authorChannel = actor === channel.channel_hash ? channel : undefined;

  const row: NewItem = {
    ...ITEM_DEFAULTS,
    uuid: input.uuid ?? uuid(),
    mid,
    aid: owner.channel_account_id,
    uid: owner.channel_id,
    parent: top?.id ?? 0,
    parent_mid: top?.mid ?? mid,
    thr_parent: replyTo?.mid ?? mid,
    created,
    edited: created,
    commented: created,
    received: now,
    changed: now,
    expires: input.expires ?? NULL_DATE,
    comments_closed: input.nocomment ? created : NULL_DATE,
    owner_xchan: owner.channel_hash,
    author_xchan: actor,
    mimetype,
    title: input.title ?? '',
    summary: input.summary ?? '',
    body: input.body,
    ...itemRendering(db, input.body, mimetype),
    app: input.app ?? '',
    verb: input.verb || VERB.POST,
    obj_type: input.objType || (top ? OBJ.COMMENT : OBJ.NOTE),
    obj: input.obj ?? '',
    tgt_type: input.tgtType ?? '',
    target: input.target ?? '',
    layout_mid: input.layoutMid ?? '',
    llink: links.llink,
    plink: input.plink || links.plink,
    resource_id: input.resourceId ?? '',
    resource_type: input.resourceType ?? '',
    attach: input.attach ?? '',
    sig: authorChannel && input.signed?.channelHash === authorChannel.channel_hash && input.signed.body === input.body ? input.signed.sig : sign(authorChannel, input.body),
    location: input.location ?? '',
    coord: input.coord ?? '',
    public_policy: top?.public_policy ?? '',
    comment_policy: top?.comment_policy ?? 'contacts',
    ...acl,
    item_private: top ? top.item_private : isPublicAcl(acl) ? 0 : 1,
    item_origin: 1,
    item_unseen: actor === owner.channel_hash ? 0 : 1,
    item_consensus: input.consensus ? 1 : 0,
    item_wall: top ? top.item_wall : input.itemType ? 0 : 1,
    item_thread_top: top ? 0 : 1,
    item_nocomment: input.nocomment ? 1 : 0,
    item_verified: authorChannel ? 1 : 0,
    item_type: top ? top.item_type : (input.itemType ?? 0),
    item_hidden: input.hidden ? 1 : 0,
    item_delayed: created > toDbDate(new Date(Date.now() + 10 * 60 * 1000)) ? 1 : 0,
  };

  const item = db.transaction(() => {
    const stored = insertStoredItem(db, row, { ownThread: !top });
    const id = stored.id;
    if (top) touchThread(db, top.id, now);
    const ownerXchan = owner.channel_hash === actor ? author : getXchan(db, owner.channel_hash);
    const mentioned = storeTerms(hub, stored, input.categories ?? [], ownerXchan?.xchan_url ?? '', input.mentions);
    if (input.pagetitle) setIconfig(db, id, 'system', 'WEBPAGE', input.pagetitle, 1);
    for (const c of input.iconfig ?? []) setIconfig(db, id, c.cat, c.k, c.v, c.sharing ?? 0);
    const name = author?.xchan_name ?? 'Someone';
    // A direct message's recipients here are told of it as a message, once.
    const notified = fileDirectMessage(hub, stored, top ?? stored, { subject: input.subject });
    if (top) {
      const snippet = bodyToText(input.body, mimetype).slice(0, 80);
      if (!notified.has(top.uid) && notify(hub, { uid: top.uid, ntype: NOTIFY.COMMENT, actor, msg: `${name} commented on your post: ${snippet}`, link: stored.llink, iid: id, parent: top.id, verb: stored.verb, otype: 'item', known: { channel: owner, actor: author } })) notified.add(top.uid);
      const topAuthor = getChannelByHash(db, top.author_xchan);
      if (topAuthor && topAuthor.channel_id !== top.uid && !notified.has(topAuthor.channel_id) && notify(hub, { uid: topAuthor.channel_id, ntype: NOTIFY.COMMENT, actor, msg: `${name} commented on your post: ${snippet}`, link: stored.llink, iid: id, parent: top.id, verb: stored.verb, otype: 'item' })) notified.add(topAuthor.channel_id);
    } else if (actor !== owner.channel_hash) {
      if (notify(hub, { uid: owner.channel_id, ntype: NOTIFY.WALL, actor, msg: `${name} wrote on your wall`, link: stored.llink, iid: id, parent: id, verb: stored.verb, otype: 'item', known: { channel: owner, actor: author } })) notified.add(owner.channel_id);
    }
    notifyMentions(hub, stored, mentioned, author, notified);
    if (!top && stored.verb === VERB.POST) notifySubscribers(hub, stored, author, notified);
    setLastPost(db, owner.channel_id, now);
    emitItemEvent(hub, 'create', stored);
    return stored;
  })();
  return item;
}

export interface EditInput {
  body?: string;
  title?: string;
  summary?: string;
  mimetype?: string;
  categories?: string[];
  objType?: string;
  expires?: string;
  acl?: AccessLists;
  /** item.attach JSON; unchanged when absent. */
  attach?: string;
}

/** Edits an item written by this channel; 404 for anybody else's. Terms are derived anew. */
export function editItem(hub: Hub, channel: ChannelRow, itemId: number, input: EditInput): ItemRow {
  const db = hub.db;
  const item = getItem(db, itemId);
  if (!item || item.item_deleted || item.author_xchan !== channel.channel_hash) throw notFound('item not found');
  const body = input.body ?? item.body;
  const mimetype = input.mimetype || item.mimetype;
  checkContent({ body, title: input.title, mimetype });
  const categories = input.categories;
  return db.transaction(() => {
    const fields: Partial<NewItem> = {
      body,
      mimetype,
      ...itemRendering(db, body, mimetype),
      title: input.title ?? item.title,
      summary: input.summary ?? item.summary,
      obj_type: input.objType || item.obj_type,
      edited: nowDb(),
      changed: nowDb(),
      sig: sign(channel, body),
    };
    if (input.expires) fields.expires = input.expires;
    if (input.attach !== undefined) fields.attach = input.attach;
    const newAcl = input.acl && item.item_thread_top && item.uid === channel.channel_id ? input.acl : undefined;
    if (newAcl) Object.assign(fields, newAcl, { item_private: isPublicAcl(newAcl) ? 0 : 1 });
    updateItem(db, itemId, fields);
    if (newAcl) applyThreadAudience(db, item, newAcl);
    const terms = getItemTerms(db, itemId);
    const keptCategories = categories ?? terms.filter((t) => t.ttype === TERM_CATEGORY).map((t) => t.term);
    // The people a direct message is for stay mentioned, whatever the new text names.
    const top = item.item_thread_top ? item : getItem(db, item.parent);
    const keptMentions = top && isDirectThread(hub, top) ? terms.filter((t) => t.ttype === TERM_MENTION && t.term_hash).map((t) => t.term_hash) : [];
    deleteItemTerms(db, itemId);
    const owner = getChannel(db, item.uid);
    storeTerms(hub, getItem(db, itemId)!, keptCategories, getXchan(db, owner?.channel_hash ?? '')?.xchan_url ?? '', keptMentions);
    const edited = getItem(db, itemId)!;
    emitItemEvent(hub, 'update', edited);
    return edited;
  })();
}

/**
 * Deletes an item (a thread top takes its thread along): allowed for its author and for the
 * channel whose thread it is. Others get 404, as if it did not exist.
 */
export function deleteItem(hub: Hub, channel: ChannelRow, itemId: number): ItemRow {
  const item = getItem(hub.db, itemId);
  if (!item || item.item_deleted || (item.author_xchan !== channel.channel_hash && item.uid !== channel.channel_id)) throw notFound('item not found');
  hub.db.transaction(() => {
    markItemDeleted(hub.db, item, nowDb());
    emitItemEvent(hub, 'delete', item);
  })();
  return item;
}

/**
 * Adds or removes an activity (like, dislike, attendance) of this channel on an item. Verbs in one
 * exclusive group replace each other. Returns whether anything changed.
 */
export function setActivity(hub: Hub, channel: ChannelRow, itemId: number, verb: string, on: boolean): boolean {
  const db = hub.db;
  const actor = channel.channel_hash;
  const target = getItem(db, itemId);
  if (!target || target.item_deleted || !itemVisibleTo(db, target.id, actor)) throw notFound('item not found');
  const top = target.item_thread_top ? target : getItem(db, target.parent);
  if (!top) throw notFound('item not found');
  return db.transaction(() => {
    const existing = findActivity(db, target.uid, target.mid, actor, verb);
    if (!on) {
      if (!existing) return false;
      markItemDeleted(db, existing, nowDb());
      emitItemEvent(hub, 'delete', existing);
      return true;
    }
    if (existing) return false;
    if (!canComment(hub, actor, top)) throw forbidden('reactions to this item are not allowed for you');
    for (const group of EXCLUSIVE_GROUPS) {
      if (!group.includes(verb)) continue;
      for (const other of group) {
        const o = other !== verb ? findActivity(db, target.uid, target.mid, actor, other) : undefined;
        if (o) markItemDeleted(db, o, nowDb());
      }
    }
    const now = nowDb();
    const mid = `${uuid()}@${hub.hostname}`;
    const owner = getChannel(db, target.uid)!;
    const links = itemLinks(hub, owner.channel_address, mid);
    const id = insertItem(db, {
      ...ITEM_DEFAULTS,
      uuid: uuid(), mid, aid: owner.channel_account_id, uid: target.uid, parent: top.id, parent_mid: top.mid, thr_parent: target.mid,
      created: now, edited: now, commented: now, received: now, changed: now,
      owner_xchan: owner.channel_hash, author_xchan: actor, verb, obj_type: target.item_thread_top ? OBJ.NOTE : OBJ.COMMENT,
      obj: JSON.stringify({ type: 'Note', id: target.mid, link: target.plink }),
      llink: links.llink, plink: links.plink, sig: sign(channel, verb + target.mid),
      allow_cid: top.allow_cid, allow_gid: top.allow_gid, deny_cid: top.deny_cid, deny_gid: top.deny_gid, item_private: top.item_private,
      public_policy: top.public_policy, comment_policy: top.comment_policy, item_origin: 1, item_wall: top.item_wall, item_verified: 1,
    });
    touchThread(db, top.id, now);
    if (verb === VERB.LIKE || verb === VERB.DISLIKE) {
      const authorChannel = getChannelByHash(db, target.author_xchan);
      const what = verb === VERB.LIKE ? 'likes' : 'dislikes';
      if (authorChannel) notify(hub, { uid: authorChannel.channel_id, ntype: NOTIFY.LIKE, actor, msg: `${channel.channel_name} ${what} your post`, link: target.llink, iid: id, parent: top.id, verb, otype: 'item' });
    }
    emitItemEvent(hub, 'create', getItem(db, id)!);
    return true;
  })();
}
