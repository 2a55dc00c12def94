import type { ApiRoute } from '../../../http/api.js';
import { searchXchans } from '../../../store/xchan-lookup.js';
import { badRequest } from '../../../http/errors.js';
import { loadUserList, usersReply } from '../user-replies.js';
import { resolveRemote } from '../who.js';

/**
 * users/search: people whose name or nickname contains q (or whose address / profile URL is q).
 * With resolve=true (Mastodon's parameter), a caller with a channel also finds someone elsewhere
 * by address or actor URL, looked up on their server; they come first.
 */
export const usersSearchRoute: ApiRoute = {
  path: 'users/search',
  methods: '*',
  auth: 'none',
  async handler(req) {
    const asked = req.params.str('q')?.trim() ?? '';
    const q = asked.replace(/^@/, '');
    if (!q) throw badRequest('No search term specified.');
    if (q.length > 200) throw badRequest('q is too long');
    const count = req.params.clamped('count', 20, 1, 100);
    const page = req.params.clamped('page', 1, 1, 1000);
    const resolved = page === 1 && req.params.bool('resolve') ? await resolveRemote(req, asked) : undefined;
    const found = searchXchans(req.hub.db, q, count * page).slice((page - 1) * count).map((x) => x.xchan_hash);
    const hashes = resolved ? [resolved.xchan_hash, ...found.filter((h) => h !== resolved.xchan_hash)].slice(0, count) : found;
    return usersReply(loadUserList(req, hashes, { status: true }));
  },
};
