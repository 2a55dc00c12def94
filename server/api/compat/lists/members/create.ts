import type { ApiRequest, ApiRoute } from '../../../../http/api.js';
import { setListMember } from '../../../../services/compat/lists.js';
import { listReply, requestedList } from '../../list-replies.js';
import { resolveWho } from '../../who.js';

/** Adds (or removes) the person named by user_id / screen_name to one of the caller's lists; answers the list. */
export function listMemberHandler(req: ApiRequest, member: boolean) {
  const group = requestedList(req);
  const who = resolveWho(req, { orSelf: false });
  return listReply(req, setListMember(req.hub, req.user().channel, group.id, who.xchan_hash, member));
}

/** lists/members/create: adds one of the caller's connections to a list. */
export const listsMembersCreateRoute: ApiRoute = {
  path: 'lists/members/create',
  methods: ['POST'],
  auth: 'user',
  handler: (req) => listMemberHandler(req, true),
};
