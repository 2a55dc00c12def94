import type { ApiRoute } from '../../../http/api.js';
import { userReply } from '../user-replies.js';
import { resolveWho, resolveWhoAnywhere } from '../who.js';

/**
 * users/show (also users/show/:id, an id or a screen name): one person with the latest status the
 * caller may see. Anonymous callers get public data and must name someone; for a signed-in caller,
 * someone elsewhere named by address is looked up on their server when the hub does not know them.
 */
export const usersShowRoute: ApiRoute = {
  path: 'users/show',
  methods: '*',
  auth: 'none',
  idParam: true,
  async handler(req) {
    const who = req.identity ? await resolveWhoAnywhere(req, { orSelf: true, pathId: true }) : resolveWho(req, { orSelf: true, pathId: true });
    return userReply(req, who.xchan_hash, { status: true, omit: ['uid'] });
  },
};
