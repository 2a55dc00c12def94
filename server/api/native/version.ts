import type { ApiRoute } from '../../http/api.js';
import { renderXml } from '../../http/xml.js';
import { HEARTH_API_VERSION } from '../../version.js';

/** GET version: the hub's version string, JSON (default) or XML. No authentication. */
export const version: ApiRoute = {
  path: 'version',
  methods: '*',
  auth: 'none',
  formats: ['json', 'xml'],
  handler({ ctx, format }) {
    if (format === 'xml') {
      ctx.type = 'application/xml';
      ctx.body = renderXml('version', HEARTH_API_VERSION);
      return undefined;
    }
    return HEARTH_API_VERSION;
  },
};
