import type { MastodonRoute } from '../admit.js';
import { registerApp } from '../../../services/oauth2.js';
import { vapidKeys } from '../../../services/web-push.js';
import { mastodonApplication } from '../../../serializers/mastodon/application.js';
import { oauthCall } from '../oauth-errors.js';

/** POST /api/v1/apps: an app registers itself (no credentials needed, as on Mastodon). */
export const appsRoute: MastodonRoute = {
  path: 'apps',
  methods: ['POST'],
  auth: 'none',
  scope: 'none',
  handler(req) {
    const p = req.params;
    // A few per client address at a time (429 beyond); ctx.ip is the client behind a trusted proxy.
    req.hub.appRegistrations.check(req.ctx.ip);
    const app = oauthCall(() =>
      registerApp(req.hub.db, {
        name: p.str('client_name') ?? '',
        redirectUris: (p.values.redirect_uris === undefined ? [] : ([] as string[]).concat(p.values.redirect_uris)).flatMap((u) => u.split(/[\s\n]+/)),
        scopes: p.str('scopes') ?? 'read',
        website: p.str('website') ?? '',
      }),
    );
    req.hub.appRegistrations.count(req.ctx.ip);
    return mastodonApplication(app, { credentials: true, vapidKey: vapidKeys(req.hub.db).publicKey });
  },
};
