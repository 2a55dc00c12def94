import type { Db } from '../db/open.js';
import type { AbookRow, ChannelRow } from '../store/rows.js';
import { getChannelByHash } from '../store/channels.js';
import { getConnection, listAbconfig } from '../store/connections.js';
import { listAbookRows, listConnectionXchans } from '../store/channel-export.js';
import { abconfigRecord } from '../serializers/native/abook.js';
import { hublocRecord } from '../serializers/native/hubloc.js';
import { stringifyInts } from '../serializers/native/ints.js';
import { connectionGrant, grantBits, PERMISSION_NAMES, type PermissionName } from './permissions.js';
import { signNow } from './signer.js';

type Grants = Record<PermissionName, boolean>;

function grantsOf(decide: (perm: PermissionName) => boolean): Grants {
  return Object.fromEntries(PERMISSION_NAMES.map((p) => [p, decide(p)])) as Grants;
}

/**
 * What the other side of a connection grants the channel: a channel of this hub says so in its own
 * connection back; otherwise what it told us (abconfig their_perms, else the abook bitmask).
 */
function theirGrants(db: Db, channel: ChannelRow, a: AbookRow): Grants {
  const other = getChannelByHash(db, a.abook_xchan);
  const back = other && getConnection(db, other.channel_id, channel.channel_hash);
  if (other && back) return grantsOf((p) => connectionGrant(db, other.channel_id, channel.channel_hash, back.abook_my_perms, p));
  return grantsOf((p) => connectionGrant(db, channel.channel_id, a.abook_xchan, a.abook_their_perms, p, 'their_perms'));
}

/**
 * The connections of channel/export/basic as a Hubzilla importer reads them: every abook row with
 * its abconfig, where my_perms and their_perms list every permission (1 or 0) and the legacy
 * bitmasks are computed from them, as Hubzilla's export does.
 */
export function exportedConnections(db: Db, channel: ChannelRow): Record<string, unknown>[] {
  const uid = channel.channel_id;
  return listAbookRows(db, uid).map((a) => {
    const stored = listAbconfig(db, uid, a.abook_xchan);
    if (a.abook_self) return { ...stringifyInts(a), abconfig: stored.map(abconfigRecord) };
    const mine = grantsOf((p) => connectionGrant(db, uid, a.abook_xchan, a.abook_my_perms, p));
    const theirs = theirGrants(db, channel, a);
    const idOf = (cat: string, k: string) => String(stored.find((s) => s.cat === cat && s.k === k)?.id ?? 0);
    const permRows = (cat: 'my_perms' | 'their_perms', grants: Grants) =>
      PERMISSION_NAMES.map((k) => ({ id: idOf(cat, k), chan: String(uid), xchan: a.abook_xchan, cat, k, v: grants[k] ? '1' : '0' }));
    const others = stored.filter((s) => s.cat !== 'my_perms' && s.cat !== 'their_perms').map(abconfigRecord);
    return {
      ...stringifyInts(a),
      abook_my_perms: String(grantBits(mine, a.abook_my_perms)),
      abook_their_perms: String(grantBits(theirs, a.abook_their_perms)),
      abconfig: [...permRows('my_perms', mine), ...permRows('their_perms', theirs), ...others],
    };
  });
}

/**
 * Where the channel and its connections on this hub live (Hubzilla's hubloc rows): one location
 * each, this hub, its base URL signed with the identity's own key. Identities of other hubs have
 * no location Hearth knows of.
 */
export function exportedHublocs(db: Db, channel: ChannelRow, baseUrl: string): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  for (const x of listConnectionXchans(db, channel.channel_id)) {
    const local = x.xchan_hash === channel.channel_hash ? channel : getChannelByHash(db, x.xchan_hash);
    if (!local) continue;
    out.push(hublocRecord({
      id: x.xchan_id, guid: x.xchan_guid, guidSig: x.xchan_guid_sig, hash: x.xchan_hash, address: x.xchan_addr, channelUrl: x.xchan_url,
      baseUrl, urlSig: local.channel_prvkey ? 'sha256.' + signNow(local.channel_prvkey, baseUrl) : '', since: local.channel_created,
    }));
  }
  return out;
}
