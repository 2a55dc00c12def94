import type { ApiRequest } from '../../../../http/api.js';
import type { ChannelRow } from '../../../../store/rows.js';
import { getConnectionById } from '../../../../store/connections.js';
import { getGroup, getGroupByHash } from '../../../../store/groups.js';
import { getXchan } from '../../../../store/xchans.js';
import { badRequest } from '../../../../http/errors.js';
import { toAclString, fromAclString } from '../../../../util/ids.js';
import type { AccessLists } from '../../../../services/acl.js';

const KEYS = ['allow_cid', 'allow_gid', 'deny_cid', 'deny_gid'] as const;

function invalid(): Error {
  return badRequest('acl data invalid');
}

/** '<3><7>' (Friendica's form) or '3,7'. */
function entries(value: string): string[] {
  const v = value.trim();
  if (!v) return [];
  return v.includes('<') ? fromAclString(v).map((s) => s.trim()) : v.split(',').map((s) => s.trim()).filter(Boolean);
}

function contact(req: ApiRequest, channel: ChannelRow, v: string): string {
  if (/^\d{1,15}$/.test(v)) {
    const c = getConnectionById(req.hub.db, channel.channel_id, Number(v));
    if (!c || c.abook_self) throw invalid();
    return c.abook_xchan;
  }
  if (!getXchan(req.hub.db, v)) throw invalid();
  return v;
}

function group(req: ApiRequest, channel: ChannelRow, v: string): string {
  const g = /^\d{1,15}$/.test(v) ? getGroup(req.hub.db, channel.channel_id, Number(v)) : getGroupByHash(req.hub.db, channel.channel_id, v);
  if (!g) throw invalid();
  return g.hash;
}

/**
 * The ACL parameters of ext/photo/create and update: allow_cid / deny_cid hold contact ids (the
 * user `cid`) or xchan hashes, allow_gid / deny_gid group ids or hashes, each in the '<id><id>'
 * form. Unknown entries: 400 "acl data invalid". Keys that are absent keep `current` (public for
 * a new photo); a key present with an empty value clears that list.
 */
export function photoAclFromParams(req: ApiRequest, channel: ChannelRow, current: AccessLists): { acl: AccessLists; given: boolean } {
  const acl: AccessLists = { allow_cid: current.allow_cid, allow_gid: current.allow_gid, deny_cid: current.deny_cid, deny_gid: current.deny_gid };
  let given = false;
  for (const key of KEYS) {
    const raw = req.params.str(key);
    if (raw === undefined) continue;
    given = true;
    const values = entries(raw).map((v) => (key.endsWith('cid') ? contact(req, channel, v) : group(req, channel, v)));
    acl[key] = toAclString(values);
  }
  return { acl, given };
}
