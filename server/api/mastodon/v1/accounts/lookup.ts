import type { MastodonRoute } from '../../admit.js';
import { notFound } from '../../../../http/errors.js';
import { getLocalXchanByNick, getXchanByAddress } from '../../../../store/xchans.js';
import { accountOf } from '../../common.js';

/** GET /api/v1/accounts/lookup?acct=nick (or nick@host). */
export const lookupRoute: MastodonRoute = {
  path: 'accounts/lookup',
  methods: ['GET'],
  auth: 'none',
  scope: 'read:accounts',
  handler(req) {
    const acct = (req.params.str('acct') ?? '').trim().replace(/^@/, '').toLowerCase();
    const [nick, host] = acct.split('@');
    const local = host === undefined || host === req.hub.hostname || host === new URL(req.hub.baseUrl).host;
    const x = nick ? (local ? getLocalXchanByNick(req.hub.db, nick) : getXchanByAddress(req.hub.db, acct)) : undefined;
    if (!x || x.xchan_deleted) throw notFound('Record not found');
    return accountOf(req, x.xchan_hash);
  },
};
