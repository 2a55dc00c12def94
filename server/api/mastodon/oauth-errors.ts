import { HttpError } from '../../http/errors.js';
import { OAuth2Error } from '../../services/oauth2.js';

/** Runs a service call of the OAuth 2 service, turning its errors into the API's. */
export function oauthCall<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof OAuth2Error) throw new HttpError(err.status, err.description);
    throw err;
  }
}
