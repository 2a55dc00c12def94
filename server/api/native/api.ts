import type { ApiDefinition } from '../../http/api.js';
import { renderXml } from '../../http/xml.js';
import { setJsonBody } from '../../http/answer-body.js';
import { nativeRoutes } from './routes.js';

/**
 * The native channel data API under api/z/1.0 (Hubzilla's). Results are JSON; errors are real HTTP
 * errors with the body {"success": false, "message": "..."}.
 */
export const nativeApi: ApiDefinition = {
  name: 'native',
  prefixes: ['/api/z/1.0'],
  routes: nativeRoutes,
  defaultFormats: ['json'],
  render({ ctx }, _route, value) {
    if (value === undefined) return; // the handler wrote the response itself (streams, files)
    ctx.status = 200;
    ctx.type = 'application/json';
    // Items of one answer share their authors and owners.
    setJsonBody(ctx, value, { shared: ['owner', 'author'] });
  },
  renderError(ctx, error, format) {
    ctx.status = error.status;
    if (format === 'xml') {
      ctx.type = 'text/xml';
      ctx.body = renderXml('status', { success: false, message: error.message });
    } else {
      ctx.type = 'application/json';
      ctx.body = JSON.stringify({ success: false, message: error.message });
    }
  },
};
