import type { ApiDefinition } from '../../http/api.js';
import { reasonPhrase } from '../../http/errors.js';
import { renderXml, renderXmlPieces } from '../../http/xml.js';
import { setAnswerBody, setJsonBody, setTextPiecesBody } from '../../http/answer-body.js';
import { CompatReply, ROOTS_WITHOUT_NAMESPACES } from './reply.js';
import { compatRoutes } from './routes.js';
import { jsonpCallback } from './jsonp.js';

export const CONTENT_TYPES = {
  json: 'application/json',
  xml: 'text/xml',
  rss: 'application/rss+xml',
  atom: 'application/atom+xml',
} as const;

/** People that the statuses (and messages) of one answer share: written once each, then copied. */
const SHARED_PEOPLE = ['user', 'friendica_author', 'friendica_owner', 'sender', 'recipient'];

/**
 * The microblog-compatible API (Twitter v1.1 / GNU social / Friendica) under api/ and api/1.1/.
 * No suffix or .json answers JSON, .xml answers XML; errors have the documented flat body.
 */
export const compatApi: ApiDefinition = {
  name: 'compat',
  prefixes: ['/api', '/api/1.1'],
  routes: compatRoutes,
  defaultFormats: ['json', 'xml'],
  render({ ctx, format, params }, _route, value) {
    if (value === undefined) return; // the handler wrote the response itself
    const r = value instanceof CompatReply ? value : new CompatReply(value, 'result');
    ctx.status = 200;
    if (format === 'json') {
      const callback = jsonpCallback(ctx, params.str('callback'));
      ctx.type = callback ? 'application/javascript' : CONTENT_TYPES.json;
      if (callback) setAnswerBody(ctx, `${callback}(${JSON.stringify(r.value)})`);
      else setJsonBody(ctx, r.value, { shared: SHARED_PEOPLE });
      return;
    }
    ctx.type = CONTENT_TYPES[format];
    setTextPiecesBody(ctx, renderXmlPieces(r.root, r.value, { namespaces: !ROOTS_WITHOUT_NAMESPACES.has(r.root), ...r.xml }));
  },
  renderError(ctx, error, format, requestPath) {
    const body = { error: error.message, code: `${error.status} ${reasonPhrase(error.status)}`, request: requestPath };
    ctx.status = error.status;
    if (format === 'json') {
      ctx.type = CONTENT_TYPES.json;
      ctx.body = JSON.stringify(body);
    } else {
      ctx.type = CONTENT_TYPES[format];
      ctx.body = renderXml('status', body, { namespaces: true });
    }
  },
};
