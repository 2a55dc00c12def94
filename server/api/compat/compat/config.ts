import type { ApiRoute } from '../../../http/api.js';
import { getConfig } from '../../../store/config.js';
import { schemaVersion } from '../../../db/open.js';
import { compatConfig } from '../../../serializers/compat/config.js';
import { MAX_BODY } from '../../../services/items.js';
import { HEARTH_VERSION } from '../../../version.js';
import { reply } from '../reply.js';

/** compat/config: the StatusNet site description; no authentication. */
export const compatConfigRoute: ApiRoute = {
  path: 'compat/config',
  methods: '*',
  auth: 'none',
  handler(req) {
    const name = getConfig(req.hub.db, 'system', 'sitename') || 'Hearth';
    return reply(
      compatConfig({ name, baseUrl: req.hub.baseUrl, textLimit: MAX_BODY, platform: 'Hearth', version: HEARTH_VERSION, schemaVersion: schemaVersion(req.hub.db) }),
      'config',
    );
  },
};
