import type { ApiRoute } from '../../../http/api.js';
import { connect } from '../../../services/connections.js';
import { userReply } from '../user-replies.js';
import { resolveWhoAnywhere } from '../who.js';

/**
 * friendships/create: the caller follows (connects to) user_id / screen_name — someone elsewhere by
 * address too, looked up on their server when new — and answers that user.
 */
export const friendshipsCreateRoute: ApiRoute = {
  path: 'friendships/create',
  methods: ['POST'],
  auth: 'user',
  idParam: true,
  async handler(req) {
    const who = await resolveWhoAnywhere(req, { orSelf: false, pathId: true });
    connect(req.hub, req.user().channel, who.xchan_hash);
    return userReply(req, who.xchan_hash, { status: false });
  },
};
