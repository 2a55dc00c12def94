import type { Db } from '../db/open.js';
import type { Authenticator } from './identity.js';

/**
 * OAuth 1.0a request authentication for the compatibility API. Returns undefined for requests
 * without OAuth parameters. (The provider endpoints and signature checks live in api/compat/oauth.)
 */
export function oauthAuthenticator(_db: Db, _baseUrl: () => string): Authenticator {
  return async () => undefined;
}
