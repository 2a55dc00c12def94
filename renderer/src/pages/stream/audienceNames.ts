import { connectionsByHash } from '../../api/connections.ts';
import { nativeGroups } from '../../api/groups.ts';
import { itemSource } from '../../api/statuses.ts';
import type { Connection, NativeGroup } from '../../api/types.ts';

/** The hashes in an access list string: "<a><b>" → [a, b]. */
export const aclHashes = (acl: string | undefined) => [...(acl ?? '').matchAll(/<([^<>]+)>/g)].map((m) => m[1]!);

/**
 * The channel's groups, fetched once per channel while its pages are open, and the connections met
 * so far by hash: only the people a post names are asked for (a channel's connections are megabytes
 * after years of use).
 */
let names: { nick: string; groups: Promise<NativeGroup[]>; people: Map<string, Promise<Connection | undefined>> } | undefined;

function namesFor(nick: string) {
  if (names?.nick !== nick) {
    const groups = nativeGroups();
    names = { nick, groups, people: new Map() };
    // A failure is not kept: the next post asks again.
    groups.catch(() => (names = undefined));
  }
  return names;
}

/** The channel's connections to these people, asked for those not asked about yet (in one question). */
function peopleFor(nick: string, hashes: string[]): Promise<Array<Connection | undefined>> {
  const known = namesFor(nick);
  const missing = [...new Set(hashes.filter((h) => !known.people.has(h)))];
  if (missing.length) {
    const asked = connectionsByHash(missing);
    for (const h of missing) {
      const one = asked.then((found) => found.find((c) => (c.xchan_hash ?? c.abook_xchan) === h));
      known.people.set(h, one);
      one.catch(() => known.people.delete(h));
    }
  }
  return Promise.all(hashes.map((h) => known.people.get(h)!));
}

/** Audiences already worked out, by channel and post: a card scrolled away and back asks no more. */
const audiences = new Map<string, Promise<string[]>>();

/** Forgets the names (after a group was created or renamed). */
export function forgetAudienceNames(): void {
  names = undefined;
  audiences.clear();
}

/**
 * Who one of the channel's own restricted posts went to, in words: its groups by name, then its
 * people by name ("Family", "Bob"); what is no longer known here is counted.
 */
export function audienceOf(statusId: number, nick: string): Promise<string[]> {
  const key = `${nick} ${statusId}`;
  let found = audiences.get(key);
  if (!found) {
    found = lookUpAudience(statusId, nick);
    audiences.set(key, found);
    // A failure is not kept: the next time asks again.
    found.catch(() => audiences.delete(key));
  }
  return found;
}

async function lookUpAudience(statusId: number, nick: string): Promise<string[]> {
  const cached = names?.nick === nick;
  const asked = namesFor(nick).groups;
  const item = await itemSource(statusId);
  if (!item) return [];
  let groups = await asked;
  // A group made since the names were fetched: fetch them again, once.
  if (cached && aclHashes(item.allow_gid).some((h) => !groups.some((g) => g.hash === h))) {
    forgetAudienceNames();
    groups = await namesFor(nick).groups;
  }
  const people = await peopleFor(nick, aclHashes(item.allow_cid));
  const out: string[] = [];
  let unknown = 0;
  for (const hash of aclHashes(item.allow_gid)) {
    const g = groups.find((x) => x.hash === hash);
    if (g) out.push(g.gname);
    else unknown++;
  }
  for (const c of people) {
    if (c && String(c.abook_self) === '1') continue;
    if (c) out.push(c.xchan_name || c.xchan_addr || 'someone');
    else unknown++;
  }
  if (unknown) out.push(unknown === 1 ? '1 more' : `${unknown} more`);
  return out;
}
