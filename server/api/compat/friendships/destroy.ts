import type { ApiRoute } from '../../../http/api.js';
import { disconnect } from '../../../services/connections.js';
import { userReply } from '../user-replies.js';
import { resolveWho } from '../who.js';

/** friendships/destroy: the caller stops following user_id / screen_name; 404 when it did not. */
export const friendshipsDestroyRoute: ApiRoute = {
  path: 'friendships/destroy',
  methods: ['POST', 'DELETE'],
  auth: 'user',
  idParam: true,
  handler(req) {
    const who = resolveWho(req, { orSelf: false, pathId: true });
    disconnect(req.hub, req.user().channel, who.xchan_hash);
    return userReply(req, who.xchan_hash, { status: false });
  },
};
