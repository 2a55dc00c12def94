import type { Db } from '../db/open.js';
import type { ChannelRow } from '../store/rows.js';
import { getChannelByHash } from '../store/channels.js';
import { getPConfig } from '../store/config.js';
import { getAbconfig, getConnection } from '../store/connections.js';
import { getXchan } from '../store/xchans.js';
import { PERM_BITS } from './connections.js';

/** Hubzilla's permission names (Permissions v3). */
export const PERMISSION_NAMES = [
  'view_stream', 'send_stream', 'view_profile', 'view_contacts', 'view_storage', 'write_storage', 'view_pages', 'view_wiki',
  'write_pages', 'write_wiki', 'post_wall', 'post_comments', 'post_mail', 'post_like', 'chat', 'republish', 'delegate',
] as const;
export type PermissionName = (typeof PERMISSION_NAMES)[number];

/** Bits of a permission limit (pconfig perm_limits/<name>): who beyond the channel itself may. */
export const PERMS = {
  PUBLIC: 0x1,
  NETWORK: 0x2,
  SITE: 0x4,
  CONTACTS: 0x8,
  SPECIFIC: 0x80,
  AUTHED: 0x100,
  PENDING: 0x200,
} as const;

export function isPermissionName(name: string): name is PermissionName {
  return (PERMISSION_NAMES as readonly string[]).includes(name);
}

function isWritePermission(perm: PermissionName): boolean {
  return !perm.startsWith('view_');
}

/** What anyone who may see a public post may do with it, as on Mastodon: reply, like, share. */
const SOCIAL_PERMISSIONS: readonly PermissionName[] = ['post_comments', 'post_like', 'republish'];

/** The limit a permission has until the owner changes it: viewing and the social ones are public, the rest per connection. */
export function defaultLimit(perm: PermissionName): number {
  return perm.includes('view') || SOCIAL_PERMISSIONS.includes(perm) ? PERMS.PUBLIC : PERMS.SPECIFIC;
}

/**
 * The pconfig rows a new channel starts with, as Hubzilla writes them: a limit per permission,
 * the permission role ('custom': Hearth's defaults are not one of Hubzilla's roles), follows
 * accepted at once (autoperms), and the folders uploads go to (a folder per month). Migration 013
 * gave existing channels the same rows, migration 034 the social defaults.
 */
export const DEFAULT_CHANNEL_CONFIG: readonly { cat: string; k: string; v: string }[] = [
  ...PERMISSION_NAMES.map((perm) => ({ cat: 'perm_limits', k: perm, v: String(defaultLimit(perm)) })),
  { cat: 'system', k: 'autoperms', v: '1' },
  { cat: 'system', k: 'default_permcat', v: 'default' },
  { cat: 'system', k: 'permissions_role', v: 'custom' },
  { cat: 'system', k: 'photo_path', v: '%Y-%m' },
  { cat: 'system', k: 'attach_path', v: '%Y-%m' },
];

/** The channel's limit for a permission (pconfig perm_limits/<name>), the default when unset. */
export function permissionLimit(db: Db, uid: number, perm: PermissionName): number {
  const v = getPConfig(db, uid, 'perm_limits', perm);
  if (v !== undefined && /^\d+$/.test(v.trim())) return Number(v.trim());
  return defaultLimit(perm);
}

/**
 * What channel `uid` granted a connection individually, or was granted by it (cat 'their_perms'):
 * the abconfig entry, else the bit of the abook bitmask.
 */
export function connectionGrant(db: Db, uid: number, xchan: string, bits: number, perm: PermissionName, cat: 'my_perms' | 'their_perms' = 'my_perms'): boolean {
  const v = getAbconfig(db, uid, xchan, cat, perm);
  if (v !== undefined) return v.trim() === '1';
  const bit = (PERM_BITS as Record<string, number>)[perm];
  return bit !== undefined && (bits & bit) !== 0;
}

/** The legacy bitmask of a set of grants, keeping the bits of `base` that name no permission of today's. */
export function grantBits(grants: Partial<Record<PermissionName, boolean>>, base = 0): number {
  let bits = base;
  for (const perm of PERMISSION_NAMES) {
    const bit = (PERM_BITS as Record<string, number>)[perm];
    if (bit === undefined || grants[perm] === undefined) continue;
    bits = grants[perm] ? bits | bit : bits & ~bit;
  }
  return bits;
}

function specificGrant(db: Db, channel: ChannelRow, observer: string, myPerms: number, perm: PermissionName): boolean {
  return connectionGrant(db, channel.channel_id, observer, myPerms, perm);
}

/**
 * Whether `observer` (an xchan hash; undefined for anonymous) may do `perm` on `channel`,
 * following Hubzilla's order of decisions, except that a blocked connection is refused before
 * anything else.
 */
export function isAllowed(db: Db, channel: ChannelRow, observer: string | undefined, perm: PermissionName): boolean {
  const connection = observer ? getConnection(db, channel.channel_id, observer) : undefined;
  if (connection && !connection.abook_self && connection.abook_blocked) return false;
  if (observer === channel.channel_hash) return !(isWritePermission(perm) && channel.channel_moved);
  const limit = permissionLimit(db, channel.channel_id, perm);
  if (observer && limit & PERMS.AUTHED) return true;
  // An ignored request gets no more than it asked for: not even what anyone may do. (A record of
  // someone the channel follows is no mere request, and is not held against them.)
  if (connection?.abook_ignored && connection.abook_unconnected && isWritePermission(perm)) return false;
  if (limit & PERMS.PUBLIC) return true;
  if (!observer) return false;
  if (limit & PERMS.NETWORK && getXchan(db, observer)?.xchan_network === 'zot6') return true;
  if (limit & PERMS.SITE) return getChannelByHash(db, observer) !== undefined;
  if (!connection) return false;
  if (limit & PERMS.PENDING) return true;
  if (connection.abook_pending) return false;
  if (limit & PERMS.CONTACTS) return true;
  if (limit & PERMS.SPECIFIC) return specificGrant(db, channel, observer, connection.abook_my_perms, perm);
  return false;
}

/** Every permission for one observer, in Hubzilla's order. */
export function allPermissions(db: Db, channel: ChannelRow, observer: string | undefined): { perm: PermissionName; allowed: boolean }[] {
  return PERMISSION_NAMES.map((perm) => ({ perm, allowed: isAllowed(db, channel, observer, perm) }));
}
