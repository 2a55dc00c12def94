import type { ApiRoute } from '../../../../http/api.js';
import { badRequest } from '../../../../http/errors.js';
import { loadUser } from '../../../../services/compat/users.js';
import { compatProfiles } from '../../../../serializers/compat/profile.js';
import { listProfiles } from '../../../../store/channel-export.js';
import { getXchan } from '../../../../store/xchans.js';
import { reply } from '../../reply.js';

/** ext/profile/show: the user's profiles, or the one named by profile_id; 403 without credentials. */
export const extProfileShow: ApiRoute = {
  path: 'ext/profile/show',
  methods: ['GET'],
  auth: 'user403',
  handler: (req) => {
    const { channel } = req.user();
    const all = listProfiles(req.hub.db, channel.channel_id);
    const wanted = req.params.str('profile_id')?.trim();
    let profiles = all;
    if (wanted) {
      profiles = all.filter((p) => String(p.id) === wanted);
      if (!profiles.length) throw badRequest('profile_id not found');
    }
    const xchan = getXchan(req.hub.db, channel.channel_hash)!;
    const owner = loadUser(req.hub, channel, channel.channel_hash, { omit: ['uid'] })!;
    return reply(compatProfiles(owner, xchan, profiles, all.length), 'friendica_profiles');
  },
};
