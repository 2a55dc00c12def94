import type { ApiRoute } from '../../../http/api.js';
import { userReply } from '../user-replies.js';

/** account/verify_credentials: the caller, with its latest status unless skip_status. */
export const verifyCredentials: ApiRoute = {
  path: 'account/verify_credentials',
  methods: '*',
  auth: 'user',
  handler: (req) => userReply(req, req.user().channel.channel_hash, { status: true, omit: ['uid', 'verified'] }),
};
