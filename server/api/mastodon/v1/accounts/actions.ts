import type { ApiRequest } from '../../../../http/api.js';
import type { MastodonRoute } from '../../admit.js';
import { HttpError } from '../../../../http/errors.js';
import { getConnection } from '../../../../store/connections.js';
import { connect, disconnect } from '../../../../services/connections.js';
import { relationships, setBlocked, setMuted, setPostSubscription } from '../../../../services/mastodon/relationships.js';
import { accountXchan, flag } from '../../common.js';

function relationshipOf(req: ApiRequest, x: ReturnType<typeof accountXchan>) {
  return relationships(req.hub, req.user().channel, [x])[0];
}

function action(verb: string, scope: string, run: (req: ApiRequest, x: ReturnType<typeof accountXchan>) => void): MastodonRoute {
  return {
    path: `accounts/:id/${verb}`,
    methods: ['POST'],
    auth: 'user',
    scope,
    handler(req) {
      const x = accountXchan(req);
      run(req, x);
      return relationshipOf(req, x);
    },
  };
}

/**
 * POST /api/v1/accounts/:id/follow (at once, or a request to a channel that approves followers by hand).
 * notify=true asks to be told of each of their posts, notify=false stops it; absent leaves it.
 */
export const followRoute = action('follow', 'write:follows', (req, x) => {
  const me = req.user().channel;
  if (x.xchan_hash === me.channel_hash) throw new HttpError(403, 'You cannot follow yourself');
  connect(req.hub, me, x.xchan_hash);
  if (req.params.has('notify')) setPostSubscription(req.hub, me, x, flag(req, 'notify'));
});

export const unfollowRoute = action('unfollow', 'write:follows', (req, x) => {
  const me = req.user().channel;
  const c = getConnection(req.hub.db, me.channel_id, x.xchan_hash);
  if (c && !c.abook_self && !c.abook_unconnected) disconnect(req.hub, me, x.xchan_hash);
});

export const blockRoute = action('block', 'write:blocks', (req, x) => setBlocked(req.hub, req.user().channel, x, true));
export const unblockRoute = action('unblock', 'write:blocks', (req, x) => setBlocked(req.hub, req.user().channel, x, false));
export const muteRoute = action('mute', 'write:mutes', (req, x) => setMuted(req.hub, req.user().channel, x, true));
export const unmuteRoute = action('unmute', 'write:mutes', (req, x) => setMuted(req.hub, req.user().channel, x, false));
