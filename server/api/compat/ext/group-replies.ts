import type { ApiRequest } from '../../../http/api.js';
import type { GroupResult } from '../../../services/compat/groups.js';
import { loadUsers } from '../../../services/compat/users.js';
import { groupMemberHashes } from '../../../store/groups.js';
import type { GroupRow } from '../../../store/rows.js';
import { reply, type CompatReply } from '../reply.js';

/** group_show entries: {name, gid, user: [users]}; in XML the members sit in <users><user/></users>. */
export function groupEntries(req: ApiRequest, groups: GroupRow[]) {
  const me = req.user().channel;
  const memberHashes = new Map(groups.map((g) => [g.id, groupMemberHashes(req.hub.db, g.id)]));
  const users = loadUsers(req.hub, me, [...memberHashes.values()].flat());
  return groups.map((g) => {
    const members = memberHashes.get(g.id)!.flatMap((h) => users.get(h) ?? []);
    return req.format === 'json' ? { name: g.gname, gid: g.id, user: members } : { name: g.gname, gid: g.id, users: members };
  });
}

/** The envelope of group_create, group_update and group_delete (the key "wrong users" has a space). */
export function groupResultReply(root: string, r: GroupResult): CompatReply {
  return reply({ success: true, gid: r.group.id, name: r.group.gname, status: r.status, 'wrong users': r.wrongUsers }, root);
}
