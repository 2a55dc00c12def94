import type { ApiRequest, ApiRoute } from '../../../http/api.js';
import { getItem } from '../../../store/items.js';
import { setStar } from '../../../services/compat/stars.js';
import { statusReply } from '../status-replies.js';
import { visibleStatus } from '../visible-status.js';

/** Stars or unstars the status the request names; answers it as it is now. */
export function starHandler(req: ApiRequest, on: boolean) {
  const item = visibleStatus(req);
  setStar(req.hub, req.user().channel, item, on);
  return statusReply(req, getItem(req.hub.db, item.id)!);
}

/** favorites/create (also favorites/create/:id): stars a status. */
export const favoritesCreateRoute: ApiRoute = {
  path: 'favorites/create',
  methods: ['POST', 'PUT'],
  auth: 'user',
  idParam: true,
  handler: (req) => starHandler(req, true),
};
