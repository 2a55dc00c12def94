import type { ApiRequest } from '../../http/api.js';
import type { GroupRow } from '../../store/rows.js';
import { groupMemberCounts } from '../../store/group-counts.js';
import { compatList, type CompatList } from '../../serializers/compat/list.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import { loadUser } from '../../services/compat/users.js';
import { ownList } from '../../services/compat/lists.js';
import { listGroups } from '../../store/groups.js';
import { xchanByScreenName, xchanByUserId } from './who.js';
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

/**
 * The caller's list a request names: `list_id`, or Twitter's `slug` with the owner (owner_id /
 * owner_screen_name, which must be the caller: lists are private groups here). 400 when neither is
 * given, 404 when no such list of the caller exists.
 */
export function requestedList(req: ApiRequest): GroupRow {
  const me = req.user().channel;
  const id = req.params.int('list_id', { min: 1 });
  if (id !== undefined) return ownList(req.hub, me, id);
  const slug = req.params.str('slug')?.trim().toLowerCase();
  if (!slug) throw badRequest('list_id or slug is required');
  const ownerId = req.params.str('owner_id')?.trim();
  const ownerName = req.params.str('owner_screen_name')?.trim();
  if (ownerId || ownerName) {
    const owner = ownerId ? xchanByUserId(req, ownerId) : xchanByScreenName(req, ownerName!);
    if (owner?.xchan_hash !== me.channel_hash) throw forbidden('lists of other users cannot be shown');
  }
  const found = listsOf(req, listGroups(req.hub.db, me.channel_id)).find((l) => l.slug === slug);
  if (!found) throw notFound('gid not available');
  return ownList(req.hub, me, found.id);
}
