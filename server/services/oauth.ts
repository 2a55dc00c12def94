import { randomInt, timingSafeEqual } from 'node:crypto';
import type { Hub } from '../hub-context.js';
import { HttpError, badRequest } from '../http/errors.js';
import type { ChannelRow } from '../store/rows.js';
import {
  authorizeRequestToken, deleteOAuthToken, getLiveOAuthToken, getOAuthClient, insertOAuthClient, insertOAuthToken, purgeExpiredRequestTokens,
  type OAuthClientRow, type OAuthTokenRow,
} from '../store/oauth.js';
import { randomToken } from '../util/ids.js';
import { NULL_DATE, toDbDate } from '../util/time.js';
import type { VerifiedOAuth } from '../auth/oauth1.js';

/** A request token's callback when the client asked for the verifier to be shown (a PIN). */
const OUT_OF_BAND = 'oob';

/** Request tokens must be approved and exchanged within five minutes. */
export const REQUEST_TOKEN_LIFETIME_MS = 5 * 60 * 1000;

const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:']);

/** An absolute URL a browser may be sent to after approval; undefined when unusable. */
export function parseCallbackUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return FORBIDDEN_SCHEMES.has(url.protocol) ? undefined : url;
  } catch {
    return undefined;
  }
}

function sameSite(a: URL, b: URL): boolean {
  return a.protocol === b.protocol && a.host === b.host;
}

/**
 * Step 1: a new request token for a correctly signed request. A callback other than 'oob' must be
 * a usable URL and, when the app registered a redirect, point to the same site.
 */
export function issueRequestToken(hub: Hub, verified: VerifiedOAuth): OAuthTokenRow {
  const given = verified.oauth.oauth_callback?.trim() ?? '';
  // 'oob' asks for the PIN page even when the app registered a redirect.
  let callback = given === 'oob' ? OUT_OF_BAND : '';
  if (given && given !== 'oob') {
    const url = parseCallbackUrl(given);
    if (!url) throw badRequest('oauth_callback is not a usable URL');
    const registered = verified.client.redirect_uri ? parseCallbackUrl(verified.client.redirect_uri) : undefined;
    if (registered && !sameSite(url, registered)) throw new HttpError(401, 'oauth_callback does not match the redirect registered for this application');
    callback = url.toString();
  }
  purgeExpiredRequestTokens(hub.db);
  const row = {
    token: randomToken(16),
    secret: randomToken(16),
    kind: 'request' as const,
    client_id: verified.client.client_id,
    channel_id: null,
    verifier: '',
    callback,
    expires: toDbDate(new Date(Date.now() + REQUEST_TOKEN_LIFETIME_MS)),
  };
  insertOAuthToken(hub.db, row);
  return { ...row, created: '' };
}

/** A request token that waits for the owner's approval, with its app; undefined when unknown or expired. */
export function pendingRequest(hub: Hub, token: string): { token: OAuthTokenRow; client: OAuthClientRow } | undefined {
  const row = token ? getLiveOAuthToken(hub.db, token, 'request') : undefined;
  const client = row && getOAuthClient(hub.db, row.client_id);
  return row && client && row.channel_id === null ? { token: row, client } : undefined;
}

export interface Approval {
  verifier: string;
  /** Where to send the browser; undefined means show the verifier (out of band). */
  redirect?: string;
}

/** Step 2: the owner lets the app act as `channel`. */
export function approveRequest(hub: Hub, token: string, channel: ChannelRow): Approval | undefined {
  const pending = pendingRequest(hub, token);
  if (!pending) return undefined;
  const target = pending.token.callback === OUT_OF_BAND ? undefined : parseCallbackUrl(pending.token.callback || pending.client.redirect_uri);
  // Out of band, the owner types the verifier into the app: a PIN as Twitter's (bti's buffer takes no more).
  // One wrong try spends the request token, so a short PIN cannot be guessed.
  const verifier = target ? randomToken(16) : String(randomInt(0, 10_000_000)).padStart(7, '0');
  if (!authorizeRequestToken(hub.db, token, channel.channel_id, verifier)) return undefined;
  if (!target) return { verifier };
  target.searchParams.set('oauth_token', token);
  target.searchParams.set('oauth_verifier', verifier);
  return { verifier, redirect: target.toString() };
}

export function denyRequest(hub: Hub, token: string): void {
  if (pendingRequest(hub, token)) deleteOAuthToken(hub.db, token);
}

/**
 * Step 3: trades an approved request token and its verifier for an access token that lives until
 * revoked. The request token is spent either way.
 */
export function exchangeRequestToken(hub: Hub, verified: VerifiedOAuth): OAuthTokenRow {
  const request = verified.token!;
  deleteOAuthToken(hub.db, request.token);
  const verifier = verified.oauth.oauth_verifier ?? '';
  if (!verifier) throw badRequest('Missing verifier parameter. The parameter is required');
  const ok = request.channel_id !== null && request.verifier.length === verifier.length && timingSafeEqual(Buffer.from(request.verifier), Buffer.from(verifier));
  if (!ok) throw new HttpError(401, 'Invalid verifier or request token not authorized');
  const row = {
    token: randomToken(16),
    secret: randomToken(16),
    kind: 'access' as const,
    client_id: request.client_id,
    channel_id: request.channel_id,
    verifier: '',
    callback: '',
    expires: NULL_DATE,
  };
  insertOAuthToken(hub.db, row);
  return { ...row, created: '' };
}

export interface NewClientInput {
  name: string;
  key: string;
  secret: string;
  redirect: string;
  icon: string;
}

const KEY_PATTERN = /^[\x21-\x7e]{1,191}$/;

/** Registers an app of the account; key and secret are generated when left empty. */
export function registerClient(hub: Hub, accountId: number, input: NewClientInput): OAuthClientRow {
  const name = input.name.trim();
  const key = input.key.trim() || randomToken(16);
  const secret = input.secret.trim() || randomToken(16);
  const redirect = input.redirect.trim();
  const icon = input.icon.trim();
  if (!name) throw badRequest('The application needs a name');
  if (name.length > 191) throw badRequest('The name is too long');
  if (!KEY_PATTERN.test(key) || !KEY_PATTERN.test(secret)) throw badRequest('Key and secret must be 1 to 191 printable characters without spaces');
  if (redirect && !parseCallbackUrl(redirect)) throw badRequest('The redirect must be an absolute URL');
  if (icon && !/^https?:$/.test(parseCallbackUrl(icon)?.protocol ?? '')) throw badRequest('The icon must be an http or https URL');
  if (getOAuthClient(hub.db, key)) throw badRequest('That consumer key is already used');
  const row = { client_id: key, secret, name, redirect_uri: redirect, icon, account_id: accountId };
  insertOAuthClient(hub.db, row);
  return { ...row, created: '' };
}
