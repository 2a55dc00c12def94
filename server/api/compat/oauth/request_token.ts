import type { ApiRoute } from '../../../http/api.js';
import { issueRequestToken } from '../../../services/oauth.js';
import { tokenEndpoint } from './form-reply.js';

/** oauth/request_token: step 1 of the OAuth 1.0a dance, signed with the client's key only. */
export const oauthRequestToken: ApiRoute = {
  path: 'oauth/request_token',
  methods: '*',
  auth: 'none',
  handler: (req) => tokenEndpoint(req, 'none', (verified) => issueRequestToken(req.hub, verified)),
};
