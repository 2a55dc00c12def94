import type { ApiRoute } from '../../../http/api.js';
import { searchXchans } from '../../../store/xchan-lookup.js';
import { badRequest } from '../../../http/errors.js';
import { loadUserList, usersReply } from '../user-replies.js';

/** users/search: people whose name or nickname contains q (or whose address / profile URL is q). */
export const usersSearchRoute: ApiRoute = {
  path: 'users/search',
  methods: '*',
  auth: 'none',
  handler(req) {
    const q = req.params.str('q')?.trim().replace(/^@/, '');
    if (!q) throw badRequest('No search term specified.');
    if (q.length > 200) throw badRequest('q is too long');
    const count = req.params.clamped('count', 20, 1, 100);
    const page = req.params.clamped('page', 1, 1, 1000);
    const found = searchXchans(req.hub.db, q, count * page).slice((page - 1) * count);
    return usersReply(loadUserList(req, found.map((x) => x.xchan_hash), { status: true }));
  },
};
