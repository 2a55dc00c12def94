import type { ApiRoute } from '../../../http/api.js';
import { COMPAT_API_VERSION } from '../../../version.js';
import { reply } from '../reply.js';

/** compat/version: the StatusNet API version clients check ("0.9.7"); no authentication. */
export const compatVersionRoute: ApiRoute = {
  path: 'compat/version',
  methods: '*',
  auth: 'none',
  handler: () => reply(COMPAT_API_VERSION, 'version'),
};
