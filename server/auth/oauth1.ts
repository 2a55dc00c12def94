import { createHmac, timingSafeEqual } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import type { Db } from '../db/open.js';
import { getAccount } from '../store/accounts.js';
import { getChannel } from '../store/channels.js';
import { getLiveOAuthToken, getOAuthClient, useNonce, type OAuthClientRow, type OAuthTokenRow } from '../store/oauth.js';
import type { Authenticator } from './identity.js';
import { readOAuthRequest, type OAuthRequest } from './oauth-request.js';

const TOKEN_ENDPOINT = /\/oauth\/(request|access)_token(\.[a-z]+)?$/i;

/** Accepted clock difference between client and hub, in seconds. */
export const TIMESTAMP_WINDOW_S = 300;

/** Why an OAuth-signed request was refused: 400 for an incomplete request, 401 for wrong credentials. */
export class OAuthFailure extends Error {
  constructor(
    public readonly status: 400 | 401,
    message: string,
  ) {
    super(message);
  }
}

export interface VerifiedOAuth {
  client: OAuthClientRow;
  /** The request or access token the request was signed with (none for request_token). */
  token?: OAuthTokenRow;
  oauth: Record<string, string>;
}

function hmacSha1(base: string, key: string): string {
  return createHmac('sha1', key).update(base).digest('base64');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The expected oauth_signature of the request, computed with the oauth-1.0a package. */
export function expectedSignature(req: OAuthRequest, consumerSecret: string, tokenSecret: string): string {
  const data: Record<string, string | string[]> = Object.create(null);
  for (const [k, v] of req.signed) {
    const prev = data[k];
    data[k] = prev === undefined ? v : ([] as string[]).concat(prev, v);
  }
  const signer = new OAuth({ consumer: { key: '', secret: consumerSecret }, signature_method: 'HMAC-SHA1', hash_function: hmacSha1 });
  return signer.getSignature({ url: req.url, method: req.method, data }, tokenSecret, Object.create(null));
}

function required(oauth: Record<string, string>, name: string, what: string): string {
  const v = oauth[name];
  if (!v) throw new OAuthFailure(400, `Missing ${what} parameter. The parameter is required`);
  return v;
}

/**
 * Checks an OAuth 1.0a HMAC-SHA1 signed request: consumer, token of the wanted kind, timestamp
 * window, signature, and finally the nonce (recorded only for correctly signed requests, so
 * nobody can use up a client's nonces). Throws OAuthFailure.
 */
export function verifyOAuthRequest(db: Db, req: OAuthRequest, tokenKind: 'none' | OAuthTokenRow['kind'], nowMs = Date.now()): VerifiedOAuth {
  if (req.malformed) throw new OAuthFailure(400, 'Malformed OAuth Authorization header');
  const o = req.oauth;
  if (o.oauth_version !== undefined && o.oauth_version !== '1.0') throw new OAuthFailure(400, `OAuth version '${o.oauth_version}' not supported`);
  const method = o.oauth_signature_method;
  if (!method) throw new OAuthFailure(400, 'No signature method parameter. This parameter is required');
  if (method !== 'HMAC-SHA1') throw new OAuthFailure(400, `Signature method '${method}' not supported try one of the following: HMAC-SHA1`);
  const consumerKey = required(o, 'oauth_consumer_key', 'consumer key');
  const timestamp = required(o, 'oauth_timestamp', 'timestamp');
  const nonce = required(o, 'oauth_nonce', 'nonce');
  const signature = required(o, 'oauth_signature', 'signature');
  const now = Math.floor(nowMs / 1000);
  const ts = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : NaN;
  if (!(Math.abs(ts - now) <= TIMESTAMP_WINDOW_S)) throw new OAuthFailure(401, `Expired timestamp, yours ${timestamp}, ours ${now}`);
  const client = getOAuthClient(db, consumerKey);
  if (!client) throw new OAuthFailure(401, 'Invalid consumer');
  let token: OAuthTokenRow | undefined;
  if (tokenKind !== 'none') {
    const key = o.oauth_token ?? '';
    token = key ? getLiveOAuthToken(db, key, tokenKind) : undefined;
    if (!token || token.client_id !== client.client_id) throw new OAuthFailure(401, `Invalid ${tokenKind} token: ${key}`);
  }
  const signedOk = [req.url, ...req.altUrls].some((url) => sameText(signature, expectedSignature({ ...req, url }, client.secret, token?.secret ?? '')));
  if (!signedOk) throw new OAuthFailure(401, 'Invalid signature');
  if (!useNonce(db, client.client_id, nonce, ts, now - 2 * TIMESTAMP_WINDOW_S)) throw new OAuthFailure(401, `Nonce already used: ${nonce}`);
  return { client, token, oauth: o };
}

/**
 * OAuth 1.0a request authentication for the compatibility API: a request signed with a client's
 * key and an access token acts as the channel the owner approved. Returns undefined for requests
 * without OAuth parameters, null for refused ones.
 */
export function oauthAuthenticator(db: Db, baseUrl: () => string): Authenticator {
  return async (ctx) => {
    // The token endpoints check their own signatures (with request or no tokens).
    if (TOKEN_ENDPOINT.test(ctx.path)) return undefined;
    const req = readOAuthRequest(ctx, baseUrl());
    if (!req) return undefined;
    let verified: VerifiedOAuth;
    try {
      verified = verifyOAuthRequest(db, req, 'access');
    } catch (err) {
      if (err instanceof OAuthFailure) return null;
      throw err;
    }
    const channel = verified.token?.channel_id ? getChannel(db, verified.token.channel_id) : undefined;
    const account = channel && getAccount(db, channel.channel_account_id);
    if (!channel || !account || channel.channel_removed || account.account_flags !== 0) return null;
    return { account, channel, via: 'oauth', oauthClient: verified.client.client_id };
  };
}
