import type { ApiRequest } from '../../http/api.js';
import type { GroupRow } from '../../store/rows.js';
import { groupMemberCounts } from '../../store/group-counts.js';
import { compatList, type CompatList } from '../../serializers/compat/list.js';
import { notFound } from '../../http/errors.js';
import { loadUser } from '../../services/compat/users.js';
import { reply, type CompatReply } from './reply.js';

/** The caller's groups as Twitter lists, owned by the caller. */
export function listsOf(req: ApiRequest, groups: GroupRow[]): CompatList[] {
  const me = req.user().channel;
  const owner = loadUser(req.hub, me, me.channel_hash, { entities: false });
  if (!owner) throw notFound('User not found.');
  const counts = groupMemberCounts(req.hub.db, me.channel_id);
  return groups.map((g) => compatList(g, owner, counts.get(g.id) ?? 0));
}

/** One list, bare as Twitter answers lists/create, update and destroy (XML root `list`). */
export function listReply(req: ApiRequest, group: GroupRow): CompatReply {
  return reply(listsOf(req, [group])[0], 'list');
}
