import type { ApiRoute } from '../../../http/api.js';
import { badRequest } from '../../../http/errors.js';
import { setProfilePhoto } from '../../../services/photos.js';
import { userReply } from '../user-replies.js';

/** account/update_profile_image: a new profile photo (multipart image, or media) at scales 4–6; answers the updated user. */
export const updateProfileImageRoute: ApiRoute = {
  path: 'account/update_profile_image',
  methods: ['POST'],
  auth: 'user',
  async handler(req) {
    const channel = req.user().channel;
    const file = req.params.file('image') ?? req.params.file('media');
    if (!file) throw badRequest('no media data submitted');
    await setProfilePhoto(req.hub, channel, file);
    return userReply(req, channel.channel_hash, { status: true, omit: ['uid', 'verified'] });
  },
};
