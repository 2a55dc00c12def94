import type { ApiRoute } from '../../../http/api.js';
import { exchangeRequestToken } from '../../../services/oauth.js';
import { tokenEndpoint } from './form-reply.js';

/** oauth/access_token: step 3, trades an approved request token and its verifier for an access token. */
export const oauthAccessToken: ApiRoute = {
  path: 'oauth/access_token',
  methods: '*',
  auth: 'none',
  handler: (req) => tokenEndpoint(req, 'request', (verified) => exchangeRequestToken(req.hub, verified)),
};
