import type { ApiRoute } from '../../../http/api.js';
import type { XchanRow } from '../../../store/rows.js';
import { getXchanById } from '../../../store/xchans.js';
import { badRequest, notFound } from '../../../http/errors.js';
import { loadUserList, usersReply } from '../user-replies.js';
import { xchanByScreenName } from '../who.js';

const MAX = 100;

/** users/lookup: people by comma-separated user_id and/or screen_name lists; 404 when none is known. */
export const usersLookupRoute: ApiRoute = {
  path: 'users/lookup',
  methods: '*',
  auth: 'user',
  handler(req) {
    const ids = req.params.list('user_id');
    const names = req.params.list('screen_name');
    if (!ids.length && !names.length) throw notFound('user_id or screen_name is required');
    if (ids.length + names.length > MAX) throw badRequest(`at most ${MAX} users per request`);
    const found: XchanRow[] = [];
    // Entries that are not numbers are skipped, as Friendica does.
    for (const id of ids) if (/^\d{1,15}$/.test(id)) found.push(...[getXchanById(req.hub.db, Number(id))].filter((x): x is XchanRow => !!x));
    for (const n of names) found.push(...[xchanByScreenName(req, n)].filter((x): x is XchanRow => !!x));
    const hashes = [...new Set(found.filter((x) => !x.xchan_deleted).map((x) => x.xchan_hash))];
    if (!hashes.length) throw notFound('No user matches the given ids or screen names.');
    return usersReply(loadUserList(req, hashes, { status: true }));
  },
};
