import type { ApiRoute } from '../../../http/api.js';
import { accountSettings } from '../../../serializers/compat/settings.js';
import { reply } from '../reply.js';

/** account/settings: the caller's time zone and this hub's fixed account preferences (read only). */
export const accountSettingsRoute: ApiRoute = {
  path: 'account/settings',
  methods: ['GET'],
  auth: 'user',
  handler(req) {
    const ch = req.user().channel;
    return reply(accountSettings({ screenName: ch.channel_address, timezone: ch.channel_timezone || 'UTC', language: 'en' }), 'settings');
  },
};
