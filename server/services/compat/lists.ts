import type { Hub } from '../../hub-context.js';
import type { ChannelRow, GroupRow } from '../../store/rows.js';
import { addGroupMember, deleteGroup, getGroup, getGroupByName, insertGroup, removeGroupMember, updateGroup } from '../../store/groups.js';
import { getConnection } from '../../store/connections.js';
import { badRequest, notFound } from '../../http/errors.js';
import { randomToken } from '../../util/ids.js';

const MAX_NAME = 190;

function checkName(name: string | undefined): string {
  const n = (name ?? '').trim();
  if (!n) throw badRequest('group name not specified');
  if (n.length > MAX_NAME) throw badRequest(`group name is too long (at most ${MAX_NAME} characters)`);
  return n;
}

/** A list (privacy group) of the channel; 404 for anybody else's or a deleted one. */
export function ownList(hub: Hub, channel: ChannelRow, id: number): GroupRow {
  const g = getGroup(hub.db, channel.channel_id, id);
  if (!g) throw notFound('gid not available');
  return g;
}

/** lists/create: a new privacy group; names are unique among the channel's groups. */
export function createList(hub: Hub, channel: ChannelRow, name: string | undefined, visible: boolean): GroupRow {
  const n = checkName(name);
  return hub.db.transaction(() => {
    if (getGroupByName(hub.db, channel.channel_id, n)) throw badRequest('group name already exists');
    const id = insertGroup(hub.db, channel.channel_id, randomToken(16), n, visible);
    return getGroup(hub.db, channel.channel_id, id)!;
  })();
}

/** lists/update: new name and/or visibility. */
export function updateList(hub: Hub, channel: ChannelRow, id: number, changes: { name?: string; visible?: boolean }): GroupRow {
  return hub.db.transaction(() => {
    const g = ownList(hub, channel, id);
    const fields: Partial<Pick<GroupRow, 'gname' | 'visible'>> = {};
    if (changes.name !== undefined) {
      const n = checkName(changes.name);
      const other = getGroupByName(hub.db, channel.channel_id, n);
      if (other && other.id !== g.id) throw badRequest('group name already exists');
      fields.gname = n;
    }
    if (changes.visible !== undefined) fields.visible = changes.visible ? 1 : 0;
    updateGroup(hub.db, g.id, fields);
    return getGroup(hub.db, channel.channel_id, g.id)!;
  })();
}

/** lists/destroy: deletes the group (and its members); returns it as it was. */
export function destroyList(hub: Hub, channel: ChannelRow, id: number): GroupRow {
  const g = ownList(hub, channel, id);
  deleteGroup(hub.db, g.id);
  return g;
}

/**
 * lists/members/create and destroy: adds or removes a person of the list. Lists are privacy groups,
 * which hold the channel's connections only: anybody else is refused with 400.
 */
export function setListMember(hub: Hub, channel: ChannelRow, id: number, xchanHash: string, member: boolean): GroupRow {
  return hub.db.transaction(() => {
    const g = ownList(hub, channel, id);
    if (member) {
      const c = getConnection(hub.db, channel.channel_id, xchanHash);
      if (!c || c.abook_self) throw badRequest('only your connections can be members of your lists');
      addGroupMember(hub.db, channel.channel_id, g.id, xchanHash);
    } else {
      removeGroupMember(hub.db, g.id, xchanHash);
    }
    return g;
  })();
}
