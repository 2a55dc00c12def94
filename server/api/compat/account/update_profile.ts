import type { ApiRoute } from '../../../http/api.js';
import { updateProfile } from '../../../services/compat/profile.js';
import { userReply } from '../user-replies.js';

/** account/update_profile: name, description, location, url; answers the updated user. */
export const updateProfileRoute: ApiRoute = {
  path: 'account/update_profile',
  methods: ['POST'],
  auth: 'user',
  handler(req) {
    const channel = req.user().channel;
    const p = req.params;
    updateProfile(req.hub, channel, { name: p.str('name'), description: p.str('description'), location: p.str('location'), url: p.str('url') });
    return userReply(req, channel.channel_hash, { status: true, omit: ['uid', 'verified'] });
  },
};
