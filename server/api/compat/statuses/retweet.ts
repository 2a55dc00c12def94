import type { ApiRoute } from '../../../http/api.js';
import { shareItem } from '../../../services/compat/share.js';
import { statusReply } from '../status-replies.js';
import { visibleStatus } from '../visible-status.js';

/** statuses/retweet (also statuses/retweet/:id): shares a public status; answers the share, which embeds it. */
export const statusesRetweetRoute: ApiRoute = {
  path: 'statuses/retweet',
  methods: ['POST', 'PUT'],
  auth: 'user',
  idParam: true,
  handler(req) {
    const original = visibleStatus(req);
    const app = req.params.str('source')?.trim().slice(0, 64) || 'api';
    return statusReply(req, shareItem(req.hub, req.user().channel, original, app));
  },
};
