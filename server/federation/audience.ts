import { PUBLIC_COLLECTION } from '@fedify/vocab';
import type { Db } from '../db/open.js';
import type { ItemRow } from '../store/rows.js';
import { getGroupByHash, groupMemberHashes } from '../store/groups.js';
import { getItemTerms } from '../store/items.js';
import { mastodonItemConfig } from '../store/mastodon.js';
import { getXchansByHash } from '../store/xchans.js';
import { remoteFollowers } from '../store/federation.js';
import { TERM_MENTION } from '../content/terms.js';
import { fromAclString } from '../util/ids.js';
import { isPublicAcl } from '../services/acl.js';

/** Whom an item goes to, in ActivityPub terms, and which remote actors get it delivered. */
export interface Audience {
  to: URL[];
  cc: URL[];
  /** Remote actors (their ids) the item is delivered to by name. */
  recipients: string[];
  /** Delivered to the author's followers elsewhere too. */
  followers: boolean;
  public: boolean;
}

type AclItem = Pick<ItemRow, 'id' | 'uid' | 'allow_cid' | 'allow_gid' | 'deny_cid' | 'deny_gid' | 'item_private'>;

/** The identities an item's access lists name: its people and the members of its groups, less those denied. */
function aclMembers(db: Db, item: AclItem): string[] {
  const members = (cids: string, gids: string) => {
    const out = new Set(fromAclString(cids));
    for (const gh of fromAclString(gids)) {
      const g = getGroupByHash(db, item.uid, gh);
      if (g) for (const h of groupMemberHashes(db, g.id)) out.add(h);
    }
    return out;
  };
  const allowed = members(item.allow_cid, item.allow_gid);
  for (const h of members(item.deny_cid, item.deny_gid)) allowed.delete(h);
  return [...allowed];
}

/** The remote ActivityPub actors among identities (by xchan hash, which is their id). */
function remoteActors(db: Db, hashes: string[]): string[] {
  const rows = getXchansByHash(db, hashes);
  return hashes.filter((h) => rows.get(h)?.xchan_network === 'activitypub');
}

/**
 * The audience of an item the hub sends: public → to Public, cc the author's followers; unlisted →
 * the reverse; followers-only (a Mastodon app's private) → to the followers, delivered to the
 * followers elsewhere in its access list; a privacy group or named people → those actors by name; direct → the mentioned.
 * Mentioned remote actors are always among the recipients of what they may see.
 */
export function audienceOf(db: Db, item: AclItem, followersUri: URL): Audience {
  const visibility = mastodonItemConfig(db, [item.id]).get(item.id)?.visibility;
  const mentioned = remoteActors(db, getItemTerms(db, item.id).filter((t) => t.ttype === TERM_MENTION && t.term_hash).map((t) => t.term_hash));
  const urls = (ids: string[]) => ids.map((id) => new URL(id));
  if (isPublicAcl(item) && !item.item_private) {
    const unlisted = visibility === 'unlisted';
    return {
      to: unlisted ? [followersUri] : [PUBLIC_COLLECTION],
      cc: [unlisted ? PUBLIC_COLLECTION : followersUri, ...urls(mentioned)],
      recipients: mentioned,
      followers: true,
      public: true,
    };
  }
  const named = remoteActors(db, aclMembers(db, item));
  if (visibility === 'private') {
    // The channel's connections here (people it follows too), its followers elsewhere: delivered to
    // those of them in the access list, and to the mentioned.
    const followers = new Set(remoteFollowers(db, item.uid).map((a) => a.xchan_hash));
    const cc = mentioned.filter((m) => named.includes(m));
    return { to: [followersUri], cc: urls(cc), recipients: named.filter((h) => followers.has(h) || cc.includes(h)), followers: false, public: false };
  }
  return { to: urls(named), cc: [], recipients: named, followers: false, public: false };
}
