import type { Context } from 'koa';
import type { ApiRequest } from '../../../http/api.js';
import { HttpError } from '../../../http/errors.js';
import { OAuthFailure, verifyOAuthRequest, type VerifiedOAuth } from '../../../auth/oauth1.js';
import { readOAuthRequest } from '../../../auth/oauth-request.js';
import type { OAuthTokenRow } from '../../../store/oauth.js';
import { getChannel } from '../../../store/channels.js';
import { getXchan } from '../../../store/xchans.js';

/** RFC 3986 percent-encoding, as OAuth wants it. */
function rfc3986(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The token endpoints answer form-encoded text, errors included, whatever the format suffix. */
export function formReply(ctx: Context, status: number, fields: Record<string, string>): undefined {
  ctx.status = status;
  ctx.type = 'application/x-www-form-urlencoded';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = Object.entries(fields)
    .map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`)
    .join('&');
  return undefined;
}

/**
 * Runs a token endpoint: verifies the signature (with no token or a request token), then `issue`.
 * Refusals become `error=<message>` bodies with 400 or 401.
 */
export function tokenEndpoint(req: ApiRequest, tokenKind: 'none' | 'request', issue: (v: VerifiedOAuth) => OAuthTokenRow): undefined {
  const { ctx, hub } = req;
  try {
    const oauthReq = readOAuthRequest(ctx, hub.baseUrl);
    if (!oauthReq) throw new OAuthFailure(401, 'This request must be signed with OAuth 1.0a');
    const token = issue(verifyOAuthRequest(hub.db, oauthReq, tokenKind));
    const fields: Record<string, string> = { oauth_token: token.token, oauth_token_secret: token.secret };
    if (tokenKind === 'none') fields.oauth_callback_confirmed = 'true';
    // As Twitter: who the access token acts for, so that clients need not ask verify_credentials.
    const channel = token.kind === 'access' && token.channel_id !== null ? getChannel(hub.db, token.channel_id) : undefined;
    const xchan = channel && getXchan(hub.db, channel.channel_hash);
    if (channel && xchan) Object.assign(fields, { user_id: String(xchan.xchan_id), screen_name: channel.channel_address });
    return formReply(ctx, 200, fields);
  } catch (err) {
    if (err instanceof OAuthFailure || err instanceof HttpError) {
      if (err.status === 401) ctx.set('WWW-Authenticate', `OAuth realm="${hub.baseUrl}"`);
      return formReply(ctx, err.status, { error: err.message });
    }
    throw err;
  }
}
