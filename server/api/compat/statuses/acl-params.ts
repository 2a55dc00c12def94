import type { ApiRequest } from '../../../http/api.js';
import type { ChannelRow } from '../../../store/rows.js';
import { getGroup, getGroupByHash } from '../../../store/groups.js';
import { getConnectionById } from '../../../store/connections.js';
import { badRequest } from '../../../http/errors.js';
import { aclFromLists, type AccessLists } from '../../../services/acl.js';

function groupHashes(req: ApiRequest, channel: ChannelRow, names: string[]): string[] {
  return req.params.list(names[0]!).concat(...names.slice(1).map((n) => req.params.list(n))).map((v) => {
    const g = /^\d{1,15}$/.test(v) ? getGroup(req.hub.db, channel.channel_id, Number(v)) : getGroupByHash(req.hub.db, channel.channel_id, v);
    if (!g) throw badRequest(`${names[0]}: unknown group ${v.slice(0, 60)}`);
    return g.hash;
  });
}

function contactHashes(req: ApiRequest, channel: ChannelRow, name: string): string[] {
  return req.params.list(name).map((v) => {
    if (!/^\d{1,15}$/.test(v)) return v; // an xchan hash, checked by aclFromLists
    const c = getConnectionById(req.hub.db, channel.channel_id, Number(v));
    if (!c || c.abook_self) throw badRequest(`${name}: unknown contact ${v}`);
    return c.abook_xchan;
  });
}

/**
 * The audience of a new status from Friendica's ACL fields: group_allow[] / group_deny[] (also
 * circle_*) take group ids or hashes, contact_allow[] / contact_deny[] take contact ids (the user
 * `cid`) or xchan hashes. Nothing given means public.
 */
export function aclFromParams(req: ApiRequest, channel: ChannelRow): AccessLists {
  return aclFromLists(req.hub.db, channel.channel_id, {
    groupAllow: groupHashes(req, channel, ['group_allow', 'circle_allow']),
    groupDeny: groupHashes(req, channel, ['group_deny', 'circle_deny']),
    contactAllow: contactHashes(req, channel, 'contact_allow'),
    contactDeny: contactHashes(req, channel, 'contact_deny'),
  });
}
