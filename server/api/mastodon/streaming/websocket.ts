import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Hub } from '../../../hub-context.js';
import { refuseUpgrade } from '../../../http/upgrade.js';
import { checkStream, StreamError, streamsOf, type StreamCaller, type StreamClient, type StreamName } from '../../../services/mastodon/streaming.js';
import { sessionStreamCaller, streamCaller, type StreamSession } from './auth.js';

const PATHS = new Set(['/api/v1/streaming', '/api/v1/streaming/']);
const HEARTBEAT_MS = 30_000;
/** Streams one connection may listen to at once. */
const MAX_STREAMS = 32;
export const TOO_MANY_STREAMS = 'Too many streams are open for this address or token; close one first';

let wss: WebSocketServer | undefined;

function server(): WebSocketServer {
  // The token may come as the subprotocol (masto.js does that): the answer names it back.
  wss ??= new WebSocketServer({ noServer: true, maxPayload: 64 * 1024, handleProtocols: (protocols) => protocols.values().next().value ?? false });
  return wss;
}

function streamFrom(params: URLSearchParams | Record<string, unknown>): StreamName {
  const get = (k: string) => (params instanceof URLSearchParams ? params.get(k) ?? undefined : typeof params[k] === 'string' ? (params[k] as string) : undefined);
  const name = get('stream') ?? '';
  return { name, param: name.startsWith('hashtag') ? get('tag') : name === 'list' ? get('list') : undefined };
}

/**
 * WebSocket streaming at /api/v1/streaming, as Mastodon serves it: the stream named in the query,
 * more with {"type":"subscribe","stream":…} messages; events as {"stream":[…],"event":…,"payload":…}.
 * Clients authenticate with a bearer token; the owner's UI, with its session cookie from the hub's
 * own pages (see sessionStreamCaller). Returns false for upgrades of other paths.
 */
export function handleStreamingUpgrade(hub: Hub, req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): boolean {
  if (!PATHS.has(url.pathname)) return false;
  const protocol = (req.headers['sec-websocket-protocol'] ?? '').split(',')[0]?.trim();
  const header = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const token = header ?? url.searchParams.get('access_token') ?? (protocol || undefined);
  const channelParam = url.searchParams.get('channel') ?? undefined;
  let caller: StreamCaller;
  let session: StreamSession | undefined;
  let first: StreamName | undefined;
  try {
    // Without a token: the owner's UI, with the session cookie (from the hub's own pages only).
    session = token ? undefined : sessionStreamCaller(hub, req, channelParam);
    caller = session?.caller ?? streamCaller(hub, token, channelParam);
    if (url.searchParams.get('stream')) first = checkStream(hub, caller, streamFrom(url.searchParams));
  } catch (err) {
    if (err instanceof StreamError) {
      refuseUpgrade(socket, err.status, err.message);
      return true;
    }
    throw err;
  }
  const release = hub.streamBudget.take(hub.clientAddress(req), token ?? session?.key);
  if (!release) {
    refuseUpgrade(socket, 429, TOO_MANY_STREAMS);
    return true;
  }
  // Also when the handshake fails (ws then answers 400 and closes).
  if (socket.closed) release();
  else socket.once('close', release);
  server().handleUpgrade(req, socket, head, (ws: WebSocket) => {
    // A stream of the owner's session ends with the session (logged out, password changed).
    const ended = () => {
      if (!session || session.stillValid()) return false;
      ws.close(1008, 'The session ended');
      return true;
    };
    const client: StreamClient = {
      ...caller,
      streams: first ? [first] : [],
      send(stream, event, payload) {
        if (ws.readyState === ws.OPEN && !ended()) ws.send(JSON.stringify({ stream, event, payload }));
      },
    };
    const remove = streamsOf(hub).add(client, () => ws.terminate());
    const beat = setInterval(() => ended() || ws.ping(), HEARTBEAT_MS);
    beat.unref();
    ws.on('close', () => {
      clearInterval(beat);
      remove();
    });
    ws.on('error', () => ws.terminate());
    ws.on('message', (data) => {
      let msg: Record<string, unknown>;
      try {
        msg = JSON.parse(String(data)) as Record<string, unknown>;
      } catch {
        return ws.send(JSON.stringify({ error: 'Invalid JSON', status: 400 }));
      }
      if (!msg || typeof msg !== 'object' || Array.isArray(msg)) return ws.send(JSON.stringify({ error: 'A message is a JSON object', status: 400 }));
      const same = (a: StreamName, b: StreamName) => a.name === b.name && (a.param ?? '') === (b.param ?? '');
      try {
        const s = checkStream(hub, caller, streamFrom(msg));
        if (msg.type === 'subscribe') {
          if (!client.streams.some((x) => same(x, s)) && client.streams.length < MAX_STREAMS) client.streams.push(s);
        } else if (msg.type === 'unsubscribe') {
          client.streams = client.streams.filter((x) => !same(x, s));
        } else {
          ws.send(JSON.stringify({ error: 'Unknown message type', status: 400 }));
        }
      } catch (err) {
        if (!(err instanceof StreamError)) {
          // Thrown from here it would end the process.
          hub.log.error('streaming message:', err);
          return ws.close(1011, 'Internal error');
        }
        ws.send(JSON.stringify({ error: err.message, status: err.status }));
      }
    });
  });
  return true;
}
