import type { ApiRoute } from '../../../http/api.js';
import { reply } from '../reply.js';

/** help/test: "ok" (XML <ok>ok</ok>), no authentication. */
export const helpTest: ApiRoute = {
  path: 'help/test',
  methods: '*',
  auth: 'none',
  handler: () => reply('ok', 'ok'),
};
