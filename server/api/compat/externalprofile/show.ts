import type { ApiRoute } from '../../../http/api.js';
import { findXchanByUrl } from '../../../store/xchan-lookup.js';
import { badRequest, notFound } from '../../../http/errors.js';
import { userReply } from '../user-replies.js';

/** externalprofile/show: a person by profile URL (`profileurl`). */
export const externalProfileShowRoute: ApiRoute = {
  path: 'externalprofile/show',
  methods: '*',
  auth: 'none',
  handler(req) {
    const url = req.params.str('profileurl')?.trim();
    if (!url) throw badRequest('profileurl is required');
    const x = findXchanByUrl(req.hub.db, url);
    if (!x || x.xchan_deleted) throw notFound(`User ${url.slice(0, 200)} not found.`);
    return userReply(req, x.xchan_hash, { status: true, omit: ['uid'] });
  },
};
