import type { ApiRoute } from '../../../http/api.js';
import { reply } from '../reply.js';

/** help/test: JSON "ok", XML <ok>true</ok> (as Friendica and StatusNet answer), no authentication. */
export const helpTest: ApiRoute = {
  path: 'help/test',
  methods: '*',
  auth: 'none',
  handler: (req) => reply(req.format === 'xml' ? true : 'ok', 'ok'),
};
