import type { Db } from '../db/open.js';
import { getPConfig, setPConfig } from '../store/config.js';
import type { Hub } from '../hub-context.js';
import type { ChannelRow } from '../store/rows.js';
import { permissionLimit, PERMS } from './permissions.js';
import { emitProfileChange } from './profile-events.js';

/**
 * The two social settings of a channel that Mastodon apps know too, kept where Hubzilla keeps them:
 * whether follows need the channel's approval (pconfig system/autoperms, Hubzilla's "accept new
 * connections at once") and who may comment on its posts (the permission limit post_comments).
 */

/** Whether a stored system/autoperms value means "approve followers by hand" (Mastodon's locked). */
export function isLockedValue(autoperms: string | null | undefined): boolean {
  return autoperms?.trim() === '0';
}

/** Whether the channel approves its followers by hand; by default a follow is accepted at once. */
export function approvesFollowersByHand(db: Db, uid: number): boolean {
  return isLockedValue(getPConfig(db, uid, 'system', 'autoperms'));
}

/** Sets whether the channel approves its followers by hand (its actor's manuallyApprovesFollowers). */
export function setApprovesFollowersByHand(hub: Pick<Hub, 'db' | 'federation'>, channel: ChannelRow, byHand: boolean): void {
  setPConfig(hub.db, channel.channel_id, 'system', 'autoperms', byHand ? '0' : '1');
  emitProfileChange(hub, channel);
}

/** Who may comment on (and react to) the channel's posts, among those who may see them. */
export const COMMENT_POLICIES = ['anyone', 'connections', 'nobody'] as const;
export type CommentPolicy = (typeof COMMENT_POLICIES)[number];

export function isCommentPolicy(v: string): v is CommentPolicy {
  return (COMMENT_POLICIES as readonly string[]).includes(v);
}

/** The limit each choice stores; "connections" keeps the grants made to each connection. */
function limitOf(policy: CommentPolicy): number {
  return policy === 'anyone' ? PERMS.PUBLIC : policy === 'connections' ? PERMS.SPECIFIC : 0;
}

/** The channel's comment policy, read from its post_comments limit (other limits read as "connections"). */
export function commentPolicy(db: Db, uid: number): CommentPolicy {
  const limit = permissionLimit(db, uid, 'post_comments');
  if (limit === 0) return 'nobody';
  if (limit & (PERMS.PUBLIC | PERMS.AUTHED)) return 'anyone';
  return 'connections';
}

export function setCommentPolicy(db: Db, uid: number, policy: CommentPolicy): void {
  setPConfig(db, uid, 'perm_limits', 'post_comments', String(limitOf(policy)));
}
