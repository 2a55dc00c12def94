import type { ApiDefinition } from '../../http/api.js';
import { HttpError, unauthorized } from '../../http/errors.js';
import { bearerAuthenticator } from '../../auth/bearer.js';
import { admitRoute, mountable, type MastodonRoute } from './admit.js';
import { mastodonParams } from './params.js';
import { mastodonV1Routes, mastodonV2Routes } from './routes.js';
import { setJsonBody } from '../../http/answer-body.js';

/** Mastodon's wording for its usual errors; anything else keeps the hub's message. */
function mastodonMessage(error: HttpError): string {
  if (error.status === 404 && /^(Not found|not implemented)/i.test(error.message)) return 'Record not found';
  if (error.status === 401 && error.message === unauthorized().message) return 'The access token is invalid';
  return error.message;
}

function definition(prefix: '/api/v1' | '/api/v2', routes: MastodonRoute[]): ApiDefinition {
  return {
    name: 'mastodon',
    prefixes: [prefix],
    routes: mountable(routes),
    defaultFormats: ['json'],
    params: mastodonParams,
    async authenticate(ctx) {
      // A token that is wrong or revoked counts as none, as on Mastodon: routes that need a user
      // refuse the request (401), the others answer as to anyone (clients send `Bearer (null)`).
      return (await bearerAuthenticator(ctx.hub.db)(ctx)) ?? undefined;
    },
    admit: admitRoute,
    render({ ctx }, _route, value) {
      if (value === undefined) return;
      if (ctx.status === 404 || !ctx.status) ctx.status = 200;
      ctx.type = 'application/json';
      setJsonBody(ctx, value, { shared: ['account'] });
    },
    renderError(ctx, error) {
      ctx.status = error.status;
      ctx.type = 'application/json';
      ctx.body = JSON.stringify({ error: error.status >= 500 ? 'Internal error' : mastodonMessage(error) });
      // The Basic challenge of the other APIs means nothing to a bearer client.
      if (error.status === 401) ctx.set('WWW-Authenticate', 'Bearer realm="Hearth", error="invalid_token"');
    },
  };
}

/** The Mastodon client API under /api/v1 and /api/v2 (with OAuth 2 bearer tokens). */
export const mastodonApiV1 = definition('/api/v1', mastodonV1Routes);
export const mastodonApiV2 = definition('/api/v2', mastodonV2Routes);
