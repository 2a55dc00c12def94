import type { PortableItemRow, PortableXchanPart } from '../../store/item-streams.js';
import { NULL_DATE } from '../../util/time.js';

export interface PortableOptions {
  /** The backup form: adds ids, access lists and flags (export, item/full). */
  mirror: boolean;
  /** Export paths wrap mention URLs as <base>/chanview?f=&url=…; pass the base URL for that. */
  chanviewBase?: string;
}

const TERM_TYPES = ['unknown', 'hashtag', 'mention', 'category', 'private_category', 'file', 'search', 'thing', 'bookmark', 'hierarchy', 'communitytag', 'forum'];
const EXPORTED_TERM_TYPES = new Set([0, 1, 2, 3, 8, 10, 11]);
const MIRROR_ONLY_TERM_TYPES = new Set([4, 5]);
const TERM_MENTION = 2;

const MIRROR_FLAGS = [
  'item_origin', 'item_unseen', 'item_starred', 'item_uplink', 'item_consensus', 'item_wall', 'item_thread_top', 'item_notshown',
  'item_nsfw', 'item_relay', 'item_mentionsme', 'item_nocomment', 'item_obscured', 'item_verified', 'item_retained', 'item_rss',
  'item_deleted', 'item_type', 'item_hidden', 'item_unpublished', 'item_delayed', 'item_pending_remove', 'item_blocked',
] as const;

/** One object per xchan row, shared by every item of an answer that names it. */
const xchanObjects = new WeakMap<PortableXchanPart, object>();

function xchanObject(x: PortableXchanPart): object {
  let o = xchanObjects.get(x);
  if (!o) xchanObjects.set(x, (o = xchanObjectOf(x)));
  return o;
}

function xchanObjectOf(x: PortableXchanPart) {
  return {
    name: x.name,
    address: x.addr,
    url: x.url,
    network: x.network,
    photo: { mimetype: x.photo_mimetype, src: x.photo_m },
    id: x.guid,
    id_sig: x.guid_sig,
    key: x.pubkey,
  };
}

function decodeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function flagsOf(row: PortableItemRow): string[] {
  const flags: string[] = [];
  if (row.item_deleted) flags.push('deleted');
  if (row.item_hidden) flags.push('hidden');
  if (row.item_notshown) flags.push('notshown');
  if (row.item_thread_top) flags.push('thread_parent');
  if (row.item_nsfw) flags.push('nsfw');
  if (row.item_consensus) flags.push('consensus');
  if (row.item_obscured) flags.push('obscured');
  if (row.item_private) flags.push('private');
  if (row.item_private === 2) flags.push('direct');
  return flags;
}

/** An item in Hubzilla's portable format (reference notes §10); integers as strings. */
export function portableItem(row: PortableItemRow, opts: PortableOptions): Record<string, unknown> {
  const out: Record<string, unknown> = { type: 'activity', encoding: 'zot' };
  if (opts.mirror) {
    Object.assign(out, {
      id: String(row.id), parent: String(row.parent), uid: String(row.uid),
      allow_cid: row.allow_cid, allow_gid: row.allow_gid, deny_cid: row.deny_cid, deny_gid: row.deny_gid,
      revision: String(row.revision), layout_mid: row.layout_mid, postopts: row.postopts,
      resource_id: row.resource_id, resource_type: row.resource_type, attach: row.attach,
    });
    for (const f of MIRROR_FLAGS) out[f] = String(row[f]);
  }
  out.uuid = row.uuid;
  out.message_id = row.mid;
  out.message_top = row.parent_mid;
  out.message_parent = row.thr_parent;
  out.created = row.created;
  out.edited = row.edited;
  out.expires = row.expires === NULL_DATE ? '0000-00-00 00:00:00' : row.expires;
  out.commented = row.commented;
  out.mimetype = row.mimetype;
  out.title = row.title;
  out.summary = row.summary;
  out.body = row.body;
  out.app = row.app;
  out.verb = row.verb;
  out.object_type = row.obj_type;
  out.target_type = row.tgt_type;
  out.permalink = row.plink;
  out.location = row.location;
  out.longlat = row.coord;
  out.signature = row.sig;
  out.route = row.route;
  out.owner = xchanObject(row.owner);
  out.author = xchanObject(row.author);
  if (row.obj) out.object = decodeJson(row.obj);
  if (row.target) out.target = decodeJson(row.target);
  if (row.attach) out.attach = decodeJson(row.attach);
  const flags = flagsOf(row);
  if (flags.length) out.flags = flags;
  if (row.comments_closed > NULL_DATE) out.comments_closed = row.comments_closed;
  out.public_scope = row.public_policy;
  out.comment_scope = row.comment_policy;

  const tags = row.terms
    .filter((t) => EXPORTED_TERM_TYPES.has(t.ttype) || (opts.mirror && MIRROR_ONLY_TERM_TYPES.has(t.ttype)))
    .map((t) => ({
      tag: t.term,
      url: t.ttype === TERM_MENTION && opts.chanviewBase ? `${opts.chanviewBase}/chanview?f=&url=${encodeURIComponent(t.url)}` : t.url,
      type: TERM_TYPES[t.ttype] ?? 'unknown',
    }));
  if (tags.length) out.tags = tags;
  if (row.iconfig.length) {
    out.meta = row.iconfig
      .filter((c) => opts.mirror || c.sharing)
      .map((c) => ({ family: c.cat, key: c.k, value: c.v, sharing: String(c.sharing) }));
  }
  return out;
}
