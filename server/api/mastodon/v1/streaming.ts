import { PassThrough } from 'node:stream';
import type { ApiRequest } from '../../../http/api.js';
import type { MastodonRoute } from '../admit.js';
import { HttpError } from '../../../http/errors.js';
import { bearerToken } from '../../../auth/bearer.js';
import { checkStream, STREAM_SCOPES, StreamError, streamsOf, type StreamClient } from '../../../services/mastodon/streaming.js';
import { streamCaller } from '../streaming/auth.js';
import { TOO_MANY_STREAMS } from '../streaming/websocket.js';

const HEARTBEAT_MS = 15_000;

/** Server-sent events for one stream: `event: <name>` and `data: <payload>`, with a comment as heartbeat. */
function sse(name: keyof typeof STREAM_SCOPES, paramName?: 'tag' | 'list'): MastodonRoute {
  return {
    path: `streaming/${name.replace(':', '/')}`,
    methods: ['GET'],
    auth: 'none',
    scope: STREAM_SCOPES[name],
    handler(req: ApiRequest) {
      let client: StreamClient;
      try {
        const token = bearerToken(req.ctx);
        const caller = streamCaller(req.hub, token, req.params.str('channel'));
        const stream = checkStream(req.hub, caller, { name, param: paramName ? req.params.str(paramName) : undefined });
        const release = req.hub.streamBudget.take(req.ctx.ip, token);
        if (!release) throw new HttpError(429, TOO_MANY_STREAMS);
        const out = new PassThrough();
        client = { ...caller, streams: [stream], send: (_s, event, payload) => void out.write(`event: ${event}\ndata: ${payload}\n\n`) };
        const close = () => out.end();
        const remove = streamsOf(req.hub).add(client, close);
        const beat = setInterval(() => out.write(':thump\n\n'), HEARTBEAT_MS);
        beat.unref();
        const done = () => {
          clearInterval(beat);
          remove();
          release();
        };
        req.ctx.res.on('close', () => {
          done();
          out.end();
        });
        out.on('close', done);
        req.ctx.status = 200;
        req.ctx.type = 'text/event-stream';
        req.ctx.set('Cache-Control', 'no-store');
        req.ctx.set('X-Accel-Buffering', 'no');
        req.ctx.body = out;
        out.write(':)\n\n');
      } catch (err) {
        if (err instanceof StreamError) throw new HttpError(err.status, err.message);
        throw err;
      }
      return undefined;
    },
  };
}

export const sseRoutes: MastodonRoute[] = [
  { path: 'streaming/health', methods: ['GET'], auth: 'none', scope: 'none', handler: ({ ctx }) => { ctx.type = 'text/plain'; ctx.body = 'OK'; return undefined; } },
  sse('user'),
  sse('user:notification'),
  sse('public'),
  sse('public:local'),
  sse('public:remote'),
  sse('hashtag', 'tag'),
  sse('hashtag:local', 'tag'),
  sse('list', 'list'),
  sse('direct'),
];
