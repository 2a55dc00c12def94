import type { MastodonRoute } from '../../admit.js';
import { HttpError } from '../../../../http/errors.js';
import type { BearerGrant } from '../../../../auth/bearer.js';
import { vapidKeys } from '../../../../services/web-push.js';
import { mastodonApplication } from '../../../../serializers/mastodon/application.js';

/** GET /api/v1/apps/verify_credentials: the app a token (with or without a channel) belongs to. */
export const appsVerifyCredentialsRoute: MastodonRoute = {
  path: 'apps/verify_credentials',
  methods: ['GET'],
  auth: 'none',
  scope: 'none',
  handler(req) {
    const grant = req.ctx.state.oauth2 as BearerGrant | undefined;
    if (!grant) throw new HttpError(401, 'The access token is invalid');
    return mastodonApplication(grant.app, { credentials: false, vapidKey: vapidKeys(req.hub.db).publicKey });
  },
};
