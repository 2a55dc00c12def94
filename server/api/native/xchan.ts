import type { ApiRoute } from '../../http/api.js';
import { badRequest, notFound } from '../../http/errors.js';
import { getXchan, getXchanByAddress, getXchanByGuid } from '../../store/xchans.js';
import { portableXchan } from '../../serializers/native/xchan.js';

/**
 * xchan: a network identity by hash, guid or address (first given wins); someone elsewhere whom the
 * hub does not know yet is looked up on their server by address (while federation runs).
 */
export const xchan: ApiRoute = {
  path: 'xchan',
  methods: ['GET', 'POST'],
  auth: 'user',
  async handler({ hub, params }) {
    const hash = params.str('hash')?.trim();
    const guid = params.str('guid')?.trim();
    const address = params.str('address')?.trim();
    if (!hash && !guid && !address) throw badRequest('missing parameter: address, hash or guid');
    const known = hash ? getXchan(hub.db, hash) : guid ? getXchanByGuid(hub.db, guid) : getXchanByAddress(hub.db, address!);
    const row = known ?? (address && !hash && !guid ? await hub.federation.resolve(address) : undefined);
    if (!row) throw notFound('xchan not found');
    return portableXchan(row as unknown as Record<string, unknown>);
  },
};
