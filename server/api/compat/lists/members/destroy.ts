import type { ApiRoute } from '../../../../http/api.js';
import { listMemberHandler } from './create.js';

/** lists/members/destroy: removes a person from one of the caller's lists. */
export const listsMembersDestroyRoute: ApiRoute = {
  path: 'lists/members/destroy',
  methods: ['POST', 'DELETE'],
  auth: 'user',
  handler: (req) => listMemberHandler(req, false),
};
