import { listConnections } from '../../api/connections.ts';
import { nativeGroups } from '../../api/groups.ts';
import { itemSource } from '../../api/statuses.ts';
import type { Connection, NativeGroup } from '../../api/types.ts';

/** The hashes in an access list string: "<a><b>" → [a, b]. */
export const aclHashes = (acl: string | undefined) => [...(acl ?? '').matchAll(/<([^<>]+)>/g)].map((m) => m[1]!);

/** The channel's groups and connections, fetched once per channel while its pages are open. */
let names: { nick: string; load: Promise<{ groups: NativeGroup[]; connections: Connection[] }> } | undefined;

function namesFor(nick: string) {
  if (names?.nick !== nick) {
    const load = Promise.all([nativeGroups(), listConnections()]).then(([groups, connections]) => ({ groups, connections }));
    names = { nick, load };
    // A failure is not kept: the next post asks again.
    load.catch(() => (names = undefined));
  }
  return names.load;
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
  const [item, known] = await Promise.all([itemSource(statusId), namesFor(nick)]);
  if (!item) return [];
  const all = [...aclHashes(item.allow_gid), ...aclHashes(item.allow_cid)];
  const stale = cached && all.some((h) => !known.groups.some((g) => g.hash === h) && !known.connections.some((c) => (c.xchan_hash ?? c.abook_xchan) === h));
  // A group or connection made since the names were fetched: fetch them again, once.
  if (stale) forgetAudienceNames();
  const { groups, connections } = stale ? await namesFor(nick) : known;
  const out: string[] = [];
  let unknown = 0;
  for (const hash of aclHashes(item.allow_gid)) {
    const g = groups.find((x) => x.hash === hash);
    if (g) out.push(g.gname);
    else unknown++;
  }
  for (const hash of aclHashes(item.allow_cid)) {
    const c = connections.find((x) => (x.xchan_hash ?? x.abook_xchan) === hash);
    if (c && String(c.abook_self) === '1') continue;
    if (c) out.push(c.xchan_name || c.xchan_addr || 'someone');
    else unknown++;
  }
  if (unknown) out.push(unknown === 1 ? '1 more' : `${unknown} more`);
  return out;
}
