import type { ApiRoute } from '../../http/api.js';
import { badRequest, notFound } from '../../http/errors.js';
import { getConnectionById, listAbconfig, setAbconfig } from '../../store/connections.js';
import { abconfigRecord } from '../../serializers/native/abook.js';
import { isPermissionName } from '../../services/permissions.js';

/**
 * abconfig: metadata of the channel's connections; abook_id restricts it to one connection.
 * Hubzilla only reads here. Hearth also writes one entry when a POST names abook_id, cat, k and v,
 * which is how the owner grants or withdraws a connection's permissions (cat my_perms, k a
 * permission name, v 1 or 0); the answer is then that connection's entries.
 */
export const abconfig: ApiRoute = {
  path: 'abconfig',
  methods: ['GET', 'POST'],
  auth: 'user',
  handler({ hub, params, user, ctx }) {
    const uid = user().channel.channel_id;
    const id = params.int('abook_id', { min: 1 });
    let xchan: string | undefined;
    if (id !== undefined) {
      const c = getConnectionById(hub.db, uid, id);
      if (!c || c.abook_self) throw notFound('connection not found');
      xchan = c.abook_xchan;
    }
    const isWrite = ctx.method === 'POST' && (params.has('cat') || params.has('k') || params.has('v'));
    if (isWrite) {
      if (!xchan) throw badRequest('missing parameter: abook_id');
      const cat = params.required('cat');
      const k = params.required('k');
      const v = params.str('v') ?? '';
      if (cat.length > 64 || k.length > 64 || v.length > 4096) throw badRequest('cat, k or v is too long');
      if (cat === 'my_perms') {
        if (!isPermissionName(k)) throw badRequest(`unknown permission: ${k}`);
        if (v !== '0' && v !== '1') throw badRequest('v must be 1 (allowed) or 0 (not allowed)');
      }
      setAbconfig(hub.db, uid, xchan, cat, k, v);
    }
    return listAbconfig(hub.db, uid, xchan).map(abconfigRecord);
  },
};
