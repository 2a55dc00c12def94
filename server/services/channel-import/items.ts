import type { Hub } from '../../hub-context.js';
import type { ChannelRow, ItemRow } from '../../store/rows.js';
import { getChannelItemByMid, midTaken } from '../../store/channel-import.js';
import { insertStoredItem, insertTerm, ITEM_DEFAULTS, setIconfig, type NewItem } from '../../store/items.js';
import { findXchanByUrl } from '../../store/xchan-lookup.js';
import { htmlToText, renderBody } from '../../content/render.js';
import { fromAclString, toAclString, uuid } from '../../util/ids.js';
import { NULL_DATE, parseDateParam, toDbDate } from '../../util/time.js';
import { itemLinks } from '../items.js';
import { signNow } from '../signer.js';
import type { IdentityMap } from './identities.js';
import type { LinkRewriter } from './links.js';
import { num, str, type Json } from './native-client.js';

/** Term type names of the portable format, by Hubzilla's number (term.ttype). */
const TERM_TYPES = ['unknown', 'hashtag', 'mention', 'category', 'private_category', 'file', 'search', 'thing', 'bookmark', 'hierarchy', 'communitytag', 'forum'];
const TERM_MENTION = 2;

/** Flags of the backup form copied as they are. */
const COPIED_FLAGS = [
  'item_starred', 'item_uplink', 'item_consensus', 'item_wall', 'item_notshown', 'item_nsfw', 'item_relay', 'item_mentionsme', 'item_nocomment',
  'item_obscured', 'item_retained', 'item_rss', 'item_type', 'item_hidden', 'item_unpublished', 'item_blocked',
] as const;

export interface ItemContext {
  hub: Hub;
  channel: ChannelRow;
  ids: IdentityMap;
  /** Source privacy group hash → the group's hash here. */
  groups: ReadonlyMap<string, string>;
  links: LinkRewriter;
}

export type ItemOutcome =
  | { kind: 'imported'; item: ItemRow }
  | { kind: 'exists' }
  /** A comment or like whose thread is not here (yet): tried again once more items are in. */
  | { kind: 'waiting' }
  | { kind: 'skipped'; reason: string };

/** A datetime of the portable format as stored here; '' and Hubzilla's zero date become the null date. */
function date(v: unknown, fallback: string): string {
  const s = str(v).trim();
  if (!s || s.startsWith('0000-00-00')) return fallback;
  const d = parseDateParam(s);
  return d ? toDbDate(d) : fallback;
}

function json(v: unknown, links: LinkRewriter): string {
  if (v === undefined || v === null || v === '') return '';
  return links.text(typeof v === 'string' ? v : JSON.stringify(v));
}

/**
 * The access lists of a thread top, mapped onto identities and groups here. An entry that cannot
 * be mapped (a kind of group Hearth does not have) stays as it was: it admits nobody here, where
 * dropping it could open the item to more people than it was for.
 */
function accessLists(ctx: ItemContext, p: Json) {
  const groups = (acl: string) => toAclString(fromAclString(acl).map((g) => ctx.groups.get(g) ?? g));
  const acl = {
    allow_cid: ctx.ids.aclOfIdentities(str(p.allow_cid)),
    allow_gid: groups(str(p.allow_gid)),
    deny_cid: ctx.ids.aclOfIdentities(str(p.deny_cid)),
    deny_gid: groups(str(p.deny_gid)),
  };
  const flags = Array.isArray(p.flags) ? (p.flags as unknown[]).map(str) : [];
  const listed = Boolean(acl.allow_cid || acl.allow_gid || acl.deny_cid || acl.deny_gid);
  // A private item whose audience the source did not say (an answer without access lists) is
  // kept for the channel alone rather than made public.
  if (flags.includes('private') && !listed && !('allow_cid' in p)) acl.allow_cid = toAclString([ctx.channel.channel_hash]);
  const item_private = flags.includes('direct') ? 2 : flags.includes('private') || listed || acl.allow_cid ? 1 : 0;
  return { ...acl, item_private };
}

function storeTerms(ctx: ItemContext, item: ItemRow, tags: unknown): void {
  if (!Array.isArray(tags)) return;
  for (const t of tags as Json[]) {
    const term = str(t.tag);
    if (!term) continue;
    const ttype = Math.max(0, TERM_TYPES.indexOf(str(t.type)));
    let url = str(t.url);
    // Export paths wrap mention URLs as <base>/chanview?f=&url=<the real one>.
    const wrapped = /\/chanview\?f=&url=([^&]+)$/.exec(url);
    if (wrapped) url = decodeURIComponent(wrapped[1]!);
    url = ctx.links.text(url);
    const mentioned = ttype === TERM_MENTION && url ? findXchanByUrl(ctx.hub.db, url) : undefined;
    insertTerm(ctx.hub.db, { aid: item.aid, uid: item.uid, oid: item.id, ttype, term, url, termHash: mentioned ? ctx.ids.hash(mentioned.xchan_hash) : '' });
  }
}

function storeMeta(ctx: ItemContext, item: ItemRow, meta: unknown): void {
  if (!Array.isArray(meta)) return;
  for (const m of meta as Json[]) {
    const family = str(m.family);
    const key = str(m.key);
    if (!family || !key) continue;
    const value = typeof m.value === 'string' ? m.value : JSON.stringify(m.value ?? '');
    setIconfig(ctx.hub.db, item.id, family, key, value, num(m.sharing));
  }
}

/**
 * Imports one item of the source's backup form (item/export_page, photo, item/full) into the
 * channel, with its terms and metadata, in one transaction. Its message id is the key: an item
 * already here is left alone.
 */
export function importItem(ctx: ItemContext, p: Json): ItemOutcome {
  const { hub, channel } = ctx;
  const db = hub.db;
  const mid = str(p.message_id);
  if (!mid) return { kind: 'skipped', reason: 'no message id' };
  if (getChannelItemByMid(db, channel.channel_id, mid)) return { kind: 'exists' };
  const flags = Array.isArray(p.flags) ? (p.flags as unknown[]).map(str) : [];
  if (num(p.item_deleted) || flags.includes('deleted')) return { kind: 'skipped', reason: 'deleted on the source' };
  if (midTaken(db, mid)) return { kind: 'skipped', reason: 'an item with the same message id is in another channel of this hub' };
  const topMid = str(p.message_top) || mid;
  const isTop = topMid === mid;
  const top = isTop ? undefined : getChannelItemByMid(db, channel.channel_id, topMid);
  if (!isTop && !top) return { kind: 'waiting' };

  return db.transaction((): ItemOutcome => {
    const who = ctx.ids.author(p.author as Json | undefined);
    if ('refused' in who) return { kind: 'skipped', reason: who.refused };
    const author = who.hash;
    const created = date(p.created, toDbDate(new Date()));
    const edited = date(p.edited, created);
    const mimetype = str(p.mimetype) || 'text/bbcode';
    const sourceBody = str(p.body);
    const body = ctx.links.text(sourceBody);
    const html = renderBody(body, mimetype);
    const ownItem = author === channel.channel_hash;
    const acl = top
      ? { allow_cid: top.allow_cid, allow_gid: top.allow_gid, deny_cid: top.deny_cid, deny_gid: top.deny_gid, item_private: top.item_private }
      : accessLists(ctx, p);
    const flags: Partial<NewItem> = {};
    for (const f of COPIED_FLAGS) flags[f] = num(p[f]);
    const publicScope = str(p.public_scope);
    const row: NewItem = {
      ...ITEM_DEFAULTS,
      ...flags,
      uuid: str(p.uuid) || uuid(),
      mid,
      aid: channel.channel_account_id,
      uid: channel.channel_id,
      parent: top?.id ?? 0,
      parent_mid: top?.mid ?? mid,
      thr_parent: str(p.message_parent) || topMid,
      created,
      edited,
      expires: date(p.expires, NULL_DATE),
      commented: date(p.commented, created),
      received: created,
      changed: edited,
      comments_closed: date(p.comments_closed, NULL_DATE),
      owner_xchan: top?.owner_xchan ?? channel.channel_hash,
      author_xchan: author,
      mimetype,
      title: str(p.title),
      summary: str(p.summary),
      body,
      html,
      html_text: htmlToText(html),
      app: str(p.app),
      revision: num(p.revision),
      verb: str(p.verb),
      obj_type: str(p.object_type),
      obj: json(p.object, ctx.links),
      tgt_type: str(p.target_type),
      target: json(p.target, ctx.links),
      layout_mid: str(p.layout_mid),
      postopts: str(p.postopts),
      route: str(p.route),
      ...itemLinks(hub, channel.channel_address, mid),
      resource_id: str(p.resource_id),
      resource_type: str(p.resource_type),
      attach: typeof p.attach === 'string' ? ctx.links.text(p.attach) : json(p.attach, ctx.links),
      // The channel's own items are signed anew with its key here; others keep their author's
      // signature while their body is unchanged.
      sig: ownItem && channel.channel_prvkey ? 'sha256.' + signNow(channel.channel_prvkey, body) : body === sourceBody ? str(p.signature) : '',
      location: str(p.location),
      coord: str(p.longlat),
      public_policy: publicScope === 'public' ? '' : publicScope,
      comment_policy: str(p.comment_scope) || 'contacts',
      ...acl,
      item_origin: ownItem ? 1 : 0,
      item_unseen: 0,
      item_wall: top ? top.item_wall : num(p.item_wall),
      item_thread_top: isTop ? 1 : 0,
      item_verified: ownItem ? 1 : 0,
      item_type: top ? top.item_type : num(p.item_type),
    };
    const item = insertStoredItem(db, row, { ownThread: isTop });
    storeTerms(ctx, item, p.tags);
    storeMeta(ctx, item, p.meta);
    return { kind: 'imported', item };
  })();
}
