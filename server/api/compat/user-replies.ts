import type { ApiRequest } from '../../http/api.js';
import type { CompatUser, UserOptions } from '../../serializers/compat/user.js';
import { notFound } from '../../http/errors.js';
import { loadUsers } from '../../services/compat/users.js';
import { loadUsersWithStatus } from '../../services/compat/user-status.js';
import { reply, type CompatReply } from './reply.js';
import { flag, statusOptions } from './params.js';

type OmitKeys = UserOptions['omit'];

/**
 * Users as the caller sees them (anonymous callers get public data only), each with its latest
 * visible status unless `skip_status` is set or the endpoint does not embed one.
 */
export function loadUserList(req: ApiRequest, hashes: string[], opts: { status: boolean; omit?: OmitKeys; entities?: boolean }): CompatUser[] {
  const viewer = req.identity?.channel;
  const userOpts = { omit: opts.omit, entities: opts.entities, ...statusOptions(req.params) };
  const users = opts.status && !flag(req.params, 'skip_status') ? loadUsersWithStatus(req.hub, viewer, hashes, userOpts) : loadUsers(req.hub, viewer, hashes, userOpts);
  return hashes.flatMap((h) => users.get(h) ?? []);
}

/** One user (root `user`); 404 when the identity is unknown. */
export function userReply(req: ApiRequest, hash: string, opts: { status: boolean; omit?: OmitKeys }): CompatReply {
  const [user] = loadUserList(req, [hash], opts);
  if (!user) throw notFound('User not found.');
  return reply(user, 'user');
}

/** A list of users (root `users`, children `user`). */
export function usersReply(users: CompatUser[]): CompatReply {
  return reply(users, 'users', { itemName: 'user' });
}
