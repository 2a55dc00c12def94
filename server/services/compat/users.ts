import type { Hub } from '../../hub-context.js';
import type { ChannelRow, XchanRow } from '../../store/rows.js';
import { getXchansByHash } from '../../store/xchans.js';
import { countStarred } from '../../store/item-stars.js';
import { followerCounts, friendCounts, localChannelFacts, statusCounts, viewerConnections, type LocalChannelFacts } from '../../store/user-facts.js';
import { followStates } from '../../store/social-graph.js';
import { compatUser, NO_RELATION, type CompatUser, type UserFacts, type UserOptions, type UserProfile } from '../../serializers/compat/user.js';
import { CONTENT_VERBS } from '../verbs.js';
import { isLockedValue } from '../social-settings.js';

function profileOf(local: LocalChannelFacts): UserProfile {
  const location = local.channel_location || [local.locality, local.region, local.country_name].filter((s): s is string => Boolean(s)).join(', ');
  return { location, description: local.pdesc ?? '', homepage: local.homepage ?? '' };
}

/**
 * Gathers what the user serializer needs for these identities, as seen by `viewer` (undefined for
 * an anonymous caller), with a fixed number of queries whatever the number of people.
 */
export function loadUserFacts(hub: Hub, viewer: ChannelRow | undefined, hashes: Iterable<string>, known?: Map<string, XchanRow>): Map<string, UserFacts> {
  const db = hub.db;
  const wanted = [...new Set(hashes)].filter(Boolean);
  const xchans = known && wanted.every((h) => known.has(h)) ? known : getXchansByHash(db, wanted);
  const present = wanted.filter((h) => xchans.has(h));
  const locals = localChannelFacts(db, present);
  const observer = viewer?.channel_hash ?? '';
  const mine = viewer ? viewerConnections(db, viewer.channel_id, present) : new Map();
  const states = viewer ? followStates(db, viewer.channel_id, viewer.channel_hash, present) : new Map();
  const followers = followerCounts(db, present);
  const friends = friendCounts(db, present);
  const statuses = statusCounts(db, present, observer, CONTENT_VERBS);
  const out = new Map<string, UserFacts>();
  for (const hash of present) {
    const xchan = xchans.get(hash)!;
    const local = locals.get(hash);
    const conn = mine.get(hash);
    const self = viewer !== undefined && hash === viewer.channel_hash;
    const state = states.get(hash);
    out.set(hash, {
      xchan,
      local: local !== undefined,
      profile: local ? profileOf(local) : undefined,
      created: local?.channel_created ?? conn?.abook_created ?? xchan.xchan_name_date,
      locked: local ? isLockedValue(local.autoperms) : false,
      counts: {
        followers: followers.get(hash) ?? 0,
        friends: friends.get(hash) ?? 0,
        statuses: statuses.get(hash) ?? 0,
        favourites: self ? countStarred(db, viewer.channel_id) : 0,
      },
      relation: viewer
        ? {
            viewerUid: conn || self ? viewer.channel_id : 0,
            abookId: conn?.abook_id ?? 0,
            following: Boolean(state?.following),
            followRequestSent: Boolean(state?.requested),
            blocking: Boolean(conn?.abook_blocked),
            self,
          }
        : NO_RELATION,
    });
  }
  return out;
}

/** Twitter users for these identities, keyed by xchan hash (unknown hashes are left out). */
export function loadUsers(hub: Hub, viewer: ChannelRow | undefined, hashes: Iterable<string>, opts: UserOptions = {}): Map<string, CompatUser> {
  const out = new Map<string, CompatUser>();
  for (const [hash, facts] of loadUserFacts(hub, viewer, hashes)) out.set(hash, compatUser(facts, opts));
  return out;
}

/** One Twitter user, or undefined when the identity is unknown. */
export function loadUser(hub: Hub, viewer: ChannelRow | undefined, hash: string, opts: UserOptions = {}): CompatUser | undefined {
  return loadUsers(hub, viewer, [hash], opts).get(hash);
}
