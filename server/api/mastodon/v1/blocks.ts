import type { MastodonRoute } from '../admit.js';
import { blockedPage, mutedPage } from '../../../store/social-graph.js';
import { accountsOf, contactPage } from '../common.js';

/** GET /api/v1/blocks. */
export const blocksRoute: MastodonRoute = {
  path: 'blocks',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:blocks',
  handler(req) {
    const uid = req.user().channel.channel_id;
    return accountsOf(req, contactPage(req, (page) => blockedPage(req.hub.db, uid, page)).map((e) => e.hash));
  },
};

/** GET /api/v1/mutes: the connections the channel muted. */
export const mutesRoute: MastodonRoute = {
  path: 'mutes',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:mutes',
  handler(req) {
    const uid = req.user().channel.channel_id;
    return accountsOf(req, contactPage(req, (page) => mutedPage(req.hub.db, uid, page)).map((e) => e.hash));
  },
};
