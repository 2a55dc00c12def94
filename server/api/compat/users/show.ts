import type { ApiRoute } from '../../../http/api.js';
import { userReply } from '../user-replies.js';
import { resolveWho } from '../who.js';

/**
 * users/show (also users/show/:id, an id or a screen name): one person with the latest status the
 * caller may see. Anonymous callers get public data and must name someone.
 */
export const usersShowRoute: ApiRoute = {
  path: 'users/show',
  methods: '*',
  auth: 'none',
  idParam: true,
  handler(req) {
    const who = resolveWho(req, { orSelf: true, pathId: true });
    return userReply(req, who.xchan_hash, { status: true, omit: ['uid'] });
  },
};
