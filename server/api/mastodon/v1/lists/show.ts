import type { ApiRoute } from '../../../../http/api.js';
import type { MastodonRoute } from '../../admit.js';
import { destroyList, ownList, setListMember, updateList } from '../../../../services/compat/lists.js';
import { groupMembersWithXchan } from '../../../../store/groups.js';
import { getXchanById } from '../../../../store/xchans.js';
import { HttpError, notFound } from '../../../../http/errors.js';
import { accountsOf, pageList, pageParams, pathId } from '../../common.js';
import { listTitle, mastodonList, validating } from '../lists.js';

function own(req: Parameters<ApiRoute['handler']>[0]) {
  try {
    return ownList(req.hub, req.user().channel, pathId(req));
  } catch {
    throw notFound('Record not found');
  }
}

export const listShowRoute: MastodonRoute = { path: 'lists/:id', methods: ['GET'], auth: 'user', scope: 'read:lists', handler: (req) => mastodonList(own(req)) };

export const listUpdateRoute: MastodonRoute = {
  path: 'lists/:id',
  methods: ['PUT'],
  auth: 'user',
  scope: 'write:lists',
  handler: (req) => mastodonList(validating(() => updateList(req.hub, req.user().channel, own(req).id, { name: listTitle(req) }))),
};

export const listDeleteRoute: MastodonRoute = {
  path: 'lists/:id',
  methods: ['DELETE'],
  auth: 'user',
  scope: 'write:lists',
  handler(req) {
    destroyList(req.hub, req.user().channel, own(req).id);
    return {};
  },
};

/** GET /api/v1/lists/:id/accounts. */
export const listAccountsRoute: MastodonRoute = {
  path: 'lists/:id/accounts',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:lists',
  handler(req) {
    const members = groupMembersWithXchan(req.hub.db, own(req).id).map((m) => ({ hash: m.xchan_hash, id: m.xchan_id })).sort((a, b) => b.id - a.id);
    const limit = req.params.str('limit') === '0' ? members.length || 1 : undefined;
    return accountsOf(req, pageList(req, members, (m) => m.id, { ...pageParams(req, { def: 40, max: 80 }), ...(limit ? { limit } : {}) }).map((m) => m.hash));
  },
};

function members(add: boolean): MastodonRoute {
  return {
    path: 'lists/:id/accounts',
    methods: [add ? 'POST' : 'DELETE'],
    auth: 'user',
    scope: 'write:lists',
    handler(req) {
      const list = own(req);
      const ids = req.params.list('account_ids');
      if (!ids.length) throw new HttpError(422, 'Validation failed: account_ids is required');
      req.hub.db.transaction(() => {
        for (const id of ids) {
          const x = /^\d{1,15}$/.test(id) ? getXchanById(req.hub.db, Number(id)) : undefined;
          if (!x) throw notFound('Record not found');
          validating(() => setListMember(req.hub, req.user().channel, list.id, x.xchan_hash, add));
        }
      })();
      return {};
    },
  };
}

export const listAddAccountsRoute = members(true);
export const listRemoveAccountsRoute = members(false);
