import type { Hub } from '../../hub-context.js';
import type { ChannelRow } from '../../store/rows.js';
import { itemsByIds } from '../../store/item-batch.js';
import { latestStatusIds } from '../../store/user-facts.js';
import { compatUser, type CompatUser, type UserOptions } from '../../serializers/compat/user.js';
import { CONTENT_VERBS } from '../verbs.js';
import { loadStatuses, type StatusLoadOptions } from './statuses.js';
import { loadUserFacts } from './users.js';

/**
 * Twitter users that carry their latest status visible to the viewer (verify_credentials,
 * users/show, users/lookup), keyed by xchan hash.
 */
export function loadUsersWithStatus(
  hub: Hub, viewer: ChannelRow | undefined, hashes: Iterable<string>, opts: Omit<UserOptions, 'status'> & StatusLoadOptions = {},
): Map<string, CompatUser> {
  const facts = loadUserFacts(hub, viewer, hashes);
  const latest = latestStatusIds(hub.db, [...facts.keys()], viewer?.channel_hash ?? '', CONTENT_VERBS);
  const items = itemsByIds(hub.db, [...latest.values()]);
  const statuses = new Map(loadStatuses(hub, viewer, items, opts).map((s) => [s.id, s]));
  const out = new Map<string, CompatUser>();
  for (const [hash, f] of facts) {
    const id = latest.get(hash);
    out.set(hash, compatUser(f, { ...opts, status: id !== undefined ? statuses.get(id) : undefined }));
  }
  return out;
}
