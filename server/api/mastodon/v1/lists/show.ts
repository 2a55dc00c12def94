import type { ApiRoute } from '../../../../http/api.js';
import type { MastodonRoute } from '../../admit.js';
import { destroyList, ownList, setListMember, updateList } from '../../../../services/compat/lists.js';
import { groupMembersPage } from '../../../../store/social-graph.js';
import { getXchanById } from '../../../../store/xchans.js';
import { HttpError, notFound } from '../../../../http/errors.js';
import { accountsOf, contactPage, pageParams, pathId } from '../../common.js';
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
    const gid = own(req).id;
    // limit=0 asks for every account of the list (Mastodon's meaning).
    const all = req.params.str('limit') === '0';
    const p = { ...pageParams(req, { def: 40, max: 80 }), ...(all ? { limit: -1 } : {}) };
    return accountsOf(req, contactPage(req, (page) => groupMembersPage(req.hub.db, gid, page), p).map((m) => m.hash));
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
