import type { IncomingMessage } from 'node:http';
import type { Hub } from '../../../hub-context.js';
import { resolveBearer } from '../../../auth/bearer.js';
import { SESSION_COOKIE } from '../../../auth/identity.js';
import { scopeCovers } from '../../../services/oauth2.js';
import { StreamError, type StreamCaller } from '../../../services/mastodon/streaming.js';
import { getAccount } from '../../../store/accounts.js';
import { getChannel, getChannelByNick } from '../../../store/channels.js';
import { findSession } from '../../../store/sessions.js';

/**
 * Who opens a stream: the channel and scopes of a bearer token (header, Sec-WebSocket-Protocol or
 * access_token), or nobody for the public streams. A wrong token is 401; a token that may read no
 * stream 403 (each stream checks its own scope); `channel=` naming another channel than the token's, 403.
 */
export function streamCaller(hub: Hub, token: string | undefined, channelParam: string | undefined): StreamCaller {
  if (!token) return { viewer: undefined, scopes: undefined };
  const grant = resolveBearer(hub.db, token);
  if (!grant) throw new StreamError(401, 'Error: Invalid access token');
  if (!['read:statuses', 'read:notifications'].some((s) => scopeCovers(grant.scopes, s))) throw new StreamError(403, 'Error: Access token does not have the required scopes');
  const channel = grant.identity?.channel;
  if (channel && channelParam && channelParam.toLowerCase() !== channel.channel_address) throw new StreamError(403, 'This token was approved for another channel');
  return { viewer: channel, scopes: grant.scopes };
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

/** Whether the browser says the page that opens the WebSocket is one of the hub's own. */
function fromHubPage(hub: Hub, req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (!origin) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  // Behind a reverse proxy the Host header may name the hub's own address; the page's origin is then the base URL's.
  return url.host === req.headers.host || url.origin === new URL(hub.baseUrl).origin;
}

/** The owner's browser session behind a stream: still valid, or ended (logged out, password changed). */
export interface StreamSession {
  /** Counts the session's streams together, as a token's. */
  key: string;
  caller: StreamCaller;
  stillValid(): boolean;
}

/**
 * The owner's UI opening a WebSocket with the session cookie. A WebSocket cannot carry the
 * X-CSRF-Token header the APIs ask of a session, but the browser names the page that opens it in
 * Origin, which a page cannot change: the cookie counts only with the hub's own origin. Without
 * Origin (not a browser) or from any other origin, the cookie is ignored (the caller is anonymous).
 * `channel=` may pick another channel of the same account; a channel of no account of the session's, 403.
 */
export function sessionStreamCaller(hub: Hub, req: IncomingMessage, channelParam: string | undefined): StreamSession | undefined {
  const token = cookieValue(req.headers.cookie, SESSION_COOKIE);
  if (!token || !fromHubPage(hub, req)) return undefined;
  const session = findSession(hub.db, token);
  const account = session && getAccount(hub.db, session.account_id);
  if (!session || !account || account.account_flags !== 0) return undefined;
  const channel = channelParam ? getChannelByNick(hub.db, channelParam.toLowerCase()) : getChannel(hub.db, session.channel_id);
  if (!channel || channel.channel_removed || channel.channel_account_id !== account.account_id) throw new StreamError(403, 'No such channel of this account');
  return { key: `session ${session.id}`, caller: { viewer: channel, scopes: undefined }, stillValid: () => findSession(hub.db, token) !== undefined };
}
