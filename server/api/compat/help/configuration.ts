import type { ApiRoute } from '../../../http/api.js';
import { helpConfiguration } from '../../../serializers/compat/settings.js';
import { reply } from '../reply.js';

/** help/configuration: upload and text limits, as Twitter clients read them. */
export const helpConfigurationRoute: ApiRoute = {
  path: 'help/configuration',
  methods: ['GET'],
  auth: 'user',
  handler: (req) => {
    req.user();
    return reply(helpConfiguration(req.hub.limits), 'configuration');
  },
};
