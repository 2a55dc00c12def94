import type { ApiRoute } from '../../http/api.js';
import { badRequest, notFound } from '../../http/errors.js';
import { getConnectionById } from '../../store/connections.js';
import { getXchan, getXchanByAddress, getXchanByGuid } from '../../store/xchans.js';
import { allPermissions, isAllowed, isPermissionName, PERMISSION_NAMES } from '../../services/permissions.js';

/**
 * perm_allowed: whether the named identity (a connection by abook_id, or an xchan by xchan/hash,
 * guid or address) may do `perm` on this channel; all permissions when perm is absent. Unlike
 * Hubzilla, which evaluates an anonymous observer for hash/guid/address, the named xchan is asked.
 */
export const permAllowed: ApiRoute = {
  path: 'perm_allowed',
  methods: ['GET', 'POST'],
  auth: 'user',
  handler({ hub, params, user }) {
    const { channel } = user();
    const perm = params.str('perm')?.trim();
    if (perm && !isPermissionName(perm)) throw badRequest(`unknown permission ${perm}; known: ${PERMISSION_NAMES.join(', ')}`);
    const abookId = params.int('abook_id', { min: 1 });
    const hash = params.str('xchan')?.trim() || params.str('hash')?.trim();
    const guid = params.str('guid')?.trim();
    const address = params.str('address')?.trim();
    let observer: string | undefined;
    if (abookId !== undefined) {
      observer = getConnectionById(hub.db, channel.channel_id, abookId)?.abook_xchan;
    } else if (hash || guid || address) {
      observer = (hash ? getXchan(hub.db, hash) : guid ? getXchanByGuid(hub.db, guid) : getXchanByAddress(hub.db, address!))?.xchan_hash;
    } else {
      throw badRequest('missing parameter: abook_id, xchan, hash, guid or address');
    }
    if (!observer) throw notFound(abookId !== undefined ? 'connection not found' : 'xchan not found');
    // As Hubzilla answers: a boolean for the one permission asked, 1 or 0 (JSON numbers) in the full list.
    if (perm && isPermissionName(perm)) return [{ perm, allowed: isAllowed(hub.db, channel, observer, perm) }];
    return allPermissions(hub.db, channel, observer).map(({ perm: name, allowed }) => ({ perm: name, allowed: allowed ? 1 : 0 }));
  },
};
