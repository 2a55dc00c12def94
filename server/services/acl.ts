import type { Db } from '../db/open.js';
import { getChannel } from '../store/channels.js';
import { getGroupByHash, groupHashesContaining } from '../store/groups.js';
import { getXchan } from '../store/xchans.js';
import { fromAclString, toAclString } from '../util/ids.js';
import { badRequest } from '../http/errors.js';

export interface AccessLists {
  allow_cid: string;
  allow_gid: string;
  deny_cid: string;
  deny_gid: string;
}

export const PUBLIC_ACL: AccessLists = { allow_cid: '', allow_gid: '', deny_cid: '', deny_gid: '' };

export function isPublicAcl(acl: AccessLists): boolean {
  return !acl.allow_cid && !acl.allow_gid && !acl.deny_cid && !acl.deny_gid;
}

/**
 * Whether `observer` (an xchan hash, or undefined for anonymous) may see a row of channel `uid`
 * with these access lists. The channel itself sees everything of its own.
 */
export function canView(db: Db, row: AccessLists & { uid: number; item_private?: number }, observer: string | undefined): boolean {
  if (isPublicAcl(row) && !row.item_private) return true;
  const owner = getChannel(db, row.uid);
  if (observer && owner && owner.channel_hash === observer) return true;
  if (!observer) return false;
  const groups = new Set(groupHashesContaining(db, row.uid, observer));
  const allowCid = fromAclString(row.allow_cid);
  const allowGid = fromAclString(row.allow_gid);
  const allowed = allowCid.includes(observer) || allowGid.some((g) => groups.has(g));
  const denied = fromAclString(row.deny_cid).includes(observer) || fromAclString(row.deny_gid).some((g) => groups.has(g));
  return allowed && !denied;
}

/**
 * Access lists from request parameters (arrays of xchan hashes / group hashes of the channel).
 * Unknown hashes are refused with 400 so that a typo never silently widens or narrows an audience.
 */
export function aclFromLists(db: Db, uid: number, lists: { contactAllow?: string[]; groupAllow?: string[]; contactDeny?: string[]; groupDeny?: string[] }): AccessLists {
  const checkContacts = (hashes: string[] = [], name: string) => {
    for (const h of hashes) if (!getXchan(db, h)) throw badRequest(`${name}: unknown channel ${h}`);
    return toAclString(hashes);
  };
  const checkGroups = (hashes: string[] = [], name: string) => {
    for (const h of hashes) if (!getGroupByHash(db, uid, h)) throw badRequest(`${name}: unknown group ${h}`);
    return toAclString(hashes);
  };
  return {
    allow_cid: checkContacts(lists.contactAllow, 'contact_allow'),
    allow_gid: checkGroups(lists.groupAllow, 'group_allow'),
    deny_cid: checkContacts(lists.contactDeny, 'contact_deny'),
    deny_gid: checkGroups(lists.groupDeny, 'group_deny'),
  };
}
