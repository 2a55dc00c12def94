import type { Hub } from '../../../hub-context.js';
import { resolveBearer } from '../../../auth/bearer.js';
import { scopeCovers } from '../../../services/oauth2.js';
import { StreamError, type StreamCaller } from '../../../services/mastodon/streaming.js';

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
