import type { Hub } from '../../hub-context.js';
import { badRequest } from '../../http/errors.js';
import { listConnections, type ConnectionRow } from '../../store/connections.js';
import { addGroupMember, getGroup, getGroupByNameAnyState, groupMemberHashes, removeGroupMember, updateGroup } from '../../store/groups.js';
import type { ChannelRow, GroupRow } from '../../store/rows.js';
import { createList, ownList, updateList } from './lists.js';

/** A member as a Friendica client posts it: `cid` or `id`, as found in group_show's user objects. */
export interface MemberRef {
  cid?: unknown;
  id?: unknown;
}

export interface GroupResult {
  group: GroupRow;
  status: 'ok' | 'missing user' | 'reactivated' | 'deleted';
  /** The submitted values that name none of the channel's connections. */
  wrongUsers: unknown[];
}

function asId(v: unknown): number | undefined {
  const n = typeof v === 'string' && /^\d{1,15}$/.test(v.trim()) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/**
 * Resolves posted members to the channel's accepted connections. `cid` is the connection (abook)
 * id, as user objects carry it (Friendica's meaning); `id` is the Twitter user id (xchan_id). A bare
 * cid that is no connection id is also tried as a user id, for clients that send user ids there.
 */
export function resolveMembers(hub: Hub, channel: ChannelRow, refs: MemberRef[]): { hashes: string[]; wrong: unknown[] } {
  const connections = listConnections(hub.db, channel.channel_id);
  const byXchan = new Map<number, ConnectionRow>(connections.map((c) => [c.xchan_id, c]));
  const byAbook = new Map<number, ConnectionRow>(connections.map((c) => [c.abook_id, c]));
  const hashes = new Set<string>();
  const wrong: unknown[] = [];
  for (const ref of refs) {
    const given = ref.cid ?? ref.id;
    const cid = asId(ref.cid);
    const id = asId(ref.id);
    const found = (cid !== undefined ? byAbook.get(cid) : undefined) ?? (id !== undefined ? byXchan.get(id) : undefined) ?? (cid !== undefined && id === undefined ? byXchan.get(cid) : undefined);
    if (found) hashes.add(found.xchan_hash);
    else wrong.push(given ?? null);
  }
  return { hashes: [...hashes], wrong };
}

/**
 * ext/group_create: a new group with the given members; a deleted group of the same name is
 * revived ('reactivated'). Status 'missing user' when some members were not connections.
 */
export function createGroupWithMembers(hub: Hub, channel: ChannelRow, name: string, refs: MemberRef[]): GroupResult {
  const db = hub.db;
  return db.transaction((): GroupResult => {
    const { hashes, wrong } = resolveMembers(hub, channel, refs);
    const old = getGroupByNameAnyState(db, channel.channel_id, name.trim());
    let group: GroupRow;
    if (old?.deleted) {
      updateGroup(db, old.id, { deleted: 0 });
      group = getGroup(db, channel.channel_id, old.id)!;
    } else {
      group = createList(hub, channel, name, false);
    }
    for (const h of hashes) addGroupMember(db, channel.channel_id, group.id, h);
    return { group, status: wrong.length ? 'missing user' : old?.deleted ? 'reactivated' : 'ok', wrongUsers: wrong };
  })();
}

/**
 * ext/group_update: the posted list is the whole membership; everyone else is removed. A name other
 * than the group's current one renames it.
 */
export function replaceGroupMembers(hub: Hub, channel: ChannelRow, gid: number, name: string, refs: MemberRef[]): GroupResult {
  const db = hub.db;
  return db.transaction((): GroupResult => {
    let group = ownList(hub, channel, gid);
    const { hashes, wrong } = resolveMembers(hub, channel, refs);
    if (name.trim() !== group.gname) group = updateList(hub, channel, gid, { name });
    const keep = new Set(hashes);
    for (const h of groupMemberHashes(db, gid)) if (!keep.has(h)) removeGroupMember(db, gid, h);
    for (const h of hashes) addGroupMember(db, channel.channel_id, gid, h);
    return { group, status: wrong.length ? 'missing user' : 'ok', wrongUsers: wrong };
  })();
}

/** Checks ext/group_delete's pair: the gid must exist and carry exactly this name. */
export function groupForDeletion(hub: Hub, channel: ChannelRow, gid: number, name: string): GroupRow {
  const group = ownList(hub, channel, gid);
  if (group.gname !== name.trim()) throw badRequest('wrong group name');
  return group;
}
