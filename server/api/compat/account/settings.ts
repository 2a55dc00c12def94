import type { ApiRequest, ApiRoute } from '../../../http/api.js';
import { badRequest } from '../../../http/errors.js';
import { accountSettings } from '../../../serializers/compat/settings.js';
import {
  approvesFollowersByHand, COMMENT_POLICIES, commentPolicy, isCommentPolicy, setApprovesFollowersByHand, setCommentPolicy,
} from '../../../services/social-settings.js';
import { reply } from '../reply.js';

function settingsOf(req: ApiRequest) {
  const ch = req.user().channel;
  const db = req.hub.db;
  return accountSettings({
    screenName: ch.channel_address, timezone: ch.channel_timezone || 'UTC', language: 'en',
    protected: approvesFollowersByHand(db, ch.channel_id), commentPolicy: commentPolicy(db, ch.channel_id),
  });
}

/**
 * account/settings: the caller's time zone and preferences. POST changes the two the hub keeps:
 * `protected` (approve followers by hand) and `comment_policy` (anyone, connections or nobody may
 * comment on the channel's posts, among those who may see them); others are fixed and ignored.
 */
export const accountSettingsRoute: ApiRoute = {
  path: 'account/settings',
  methods: ['GET', 'POST'],
  auth: 'user',
  handler(req) {
    if (req.ctx.method === 'POST') {
      const ch = req.user().channel;
      const db = req.hub.db;
      const policy = req.params.str('comment_policy')?.trim();
      if (policy !== undefined && !isCommentPolicy(policy)) throw badRequest(`comment_policy must be one of ${COMMENT_POLICIES.join(', ')}`);
      const locked = req.params.has('protected') ? req.params.bool('protected') : undefined;
      db.transaction(() => {
        if (locked !== undefined) setApprovesFollowersByHand(req.hub, ch, locked);
        if (policy !== undefined) setCommentPolicy(db, ch.channel_id, policy);
      })();
    }
    return reply(settingsOf(req), 'settings');
  },
};
