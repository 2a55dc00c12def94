import type { Hub } from '../../hub-context.js';
import type { ChannelRow } from '../../store/rows.js';
import { countStarred } from '../../store/item-stars.js';
import { peopleFacts, type LocalChannelFacts } from '../../store/user-facts.js';
import { compatUser, NO_RELATION, type CompatUser, type UserFacts, type UserOptions, type UserProfile } from '../../serializers/compat/user.js';
import { isLockedValue } from '../social-settings.js';

function profileOf(local: LocalChannelFacts): UserProfile {
  const location = local.channel_location || [local.locality, local.region, local.country_name].filter((s): s is string => Boolean(s)).join(', ');
  return { location, description: local.pdesc ?? '', homepage: local.homepage ?? '' };
}

/**
 * Gathers what the user serializer needs for these identities, as seen by `viewer` (undefined for
 * an anonymous caller), with a fixed number of queries whatever the number of people.
 */
export function loadUserFacts(hub: Hub, viewer: ChannelRow | undefined, hashes: Iterable<string>): Map<string, UserFacts> {
  const db = hub.db;
  const people = peopleFacts(db, viewer && { uid: viewer.channel_id, hash: viewer.channel_hash }, [...new Set(hashes)].filter(Boolean));
  const out = new Map<string, UserFacts>();
  for (const p of people) {
    const { xchan, local } = p;
    const self = viewer !== undefined && xchan.xchan_hash === viewer.channel_hash;
    out.set(xchan.xchan_hash, {
      xchan,
      local: local !== undefined,
      profile: local ? profileOf(local) : undefined,
      created: local?.channel_created ?? p.abookCreated ?? xchan.xchan_name_date,
      locked: local ? isLockedValue(local.autoperms) : false,
      counts: {
        followers: p.followers,
        friends: p.friends,
        statuses: p.statuses,
        favourites: self ? countStarred(db, viewer.channel_id) : 0,
      },
      relation: viewer
        ? {
            viewerUid: p.abookId !== undefined || self ? viewer.channel_id : 0,
            abookId: p.abookId ?? 0,
            // Their own record is no follow.
            following: !self && p.following,
            followRequestSent: !self && p.requested,
            blocking: p.blocked,
            self,
          }
        : NO_RELATION,
    });
  }
  return out;
}

/** Twitter users for these identities, keyed by xchan hash (unknown hashes are left out). */
export function loadUsers(hub: Hub, viewer: ChannelRow | undefined, hashes: Iterable<string>, opts: UserOptions = {}): Map<string, CompatUser> {
  return usersFromFacts(loadUserFacts(hub, viewer, hashes), opts);
}

export function usersFromFacts(facts: Map<string, UserFacts>, opts: UserOptions = {}): Map<string, CompatUser> {
  const out = new Map<string, CompatUser>();
  for (const [hash, f] of facts) out.set(hash, compatUser(f, opts));
  return out;
}

/** One Twitter user, or undefined when the identity is unknown. */
export function loadUser(hub: Hub, viewer: ChannelRow | undefined, hash: string, opts: UserOptions = {}): CompatUser | undefined {
  return loadUsers(hub, viewer, [hash], opts).get(hash);
}
