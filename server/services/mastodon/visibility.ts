import type { Db } from '../../db/open.js';
import type { ChannelRow, ItemRow } from '../../store/rows.js';
import { connectionsOf } from '../../store/social-graph.js';
import { getLocalXchanByNick, getXchanByAddress } from '../../store/xchans.js';
import { findTerms } from '../../content/terms.js';
import { toAclString } from '../../util/ids.js';
import { isPublicAcl, PUBLIC_ACL, type AccessLists } from '../acl.js';

export const VISIBILITIES = ['public', 'unlisted', 'private', 'direct'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export function isVisibility(v: string): v is Visibility {
  return (VISIBILITIES as readonly string[]).includes(v);
}

/** The identities a text mentions (@nick of this hub, @nick@host known to it). */
export function mentionedHashes(db: Db, text: string): string[] {
  const out: string[] = [];
  for (const m of findTerms(text).mentions) {
    const x = m.includes('@') ? (getXchanByAddress(db, m) ?? getLocalXchanByNick(db, m.split('@')[0]!)) : getLocalXchanByNick(db, m);
    if (x && !out.includes(x.xchan_hash)) out.push(x.xchan_hash);
  }
  return out;
}

/**
 * The access lists of a new post of this visibility: public and unlisted are public; private is the
 * channel's connections when it posts; direct is the author and the channels the text mentions.
 */
export function audienceFor(db: Db, channel: ChannelRow, visibility: Visibility, text: string): AccessLists {
  if (visibility === 'public' || visibility === 'unlisted') return PUBLIC_ACL;
  const hashes = visibility === 'private' ? connectionsOf(db, channel.channel_id).map((f) => f.hash) : mentionedHashes(db, text);
  // The author is always in the audience: an empty allow list would mean public.
  return { ...PUBLIC_ACL, allow_cid: toAclString([channel.channel_hash, ...hashes.filter((h) => h !== channel.channel_hash)]) };
}

/** How a stored item reads as a Mastodon visibility (posts made elsewhere with access lists are private). */
export function visibilityOf(item: Pick<ItemRow, 'allow_cid' | 'allow_gid' | 'deny_cid' | 'deny_gid' | 'item_private'>, stored: string | undefined): Visibility {
  if (isPublicAcl(item) && !item.item_private) return stored === 'unlisted' ? 'unlisted' : 'public';
  return stored === 'direct' ? 'direct' : 'private';
}
