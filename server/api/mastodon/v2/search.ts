import type { MastodonRoute } from '../admit.js';
import { searchXchans } from '../../../store/xchan-lookup.js';
import { searchTimeline } from '../../../store/item-timelines.js';
import { searchMatch } from '../../../store/fts.js';
import { hashtagsLike } from '../../../store/mastodon.js';
import { CONTENT_VERBS } from '../../../services/verbs.js';
import { accountsOf, flag, offsetParam, pageParams, readPage, statusesOf, viewerOf } from '../common.js';

/** GET /api/v2/search: accounts, hashtags and statuses (from the full-text index) matching q; statuses page by max_id/min_id/since_id too. */
export const searchV2Route: MastodonRoute = {
  path: 'search',
  methods: ['GET'],
  auth: 'none',
  scope: 'read:search',
  async handler(req) {
    const q = (req.params.str('q') ?? '').trim().slice(0, 200);
    const type = req.params.str('type');
    const limit = req.params.clamped('limit', 20, 1, 40);
    const offset = offsetParam(req);
    const want = (t: string) => !type || type === t;
    const out = { accounts: [] as unknown[], statuses: [] as unknown[], hashtags: [] as unknown[] };
    if (!q) return out;
    const bare = q.replace(/^[@#]/, '');
    // resolve=true looks someone up on their server (an address or actor URL), for a caller with a channel.
    const resolved = want('accounts') && flag(req, 'resolve') && viewerOf(req) && !offset ? await req.hub.federation.resolve(q) : undefined;
    if (want('accounts')) {
      const found = searchXchans(req.hub.db, bare, limit + offset).slice(offset).map((x) => x.xchan_hash);
      out.accounts = accountsOf(req, resolved ? [resolved.xchan_hash, ...found.filter((h) => h !== resolved.xchan_hash)].slice(0, limit) : found);
    }
    if (want('hashtags')) {
      out.hashtags = hashtagsLike(req.hub.db, bare, limit, offset).map((name) => ({ name, url: `${req.hub.baseUrl}/search?tag=${encodeURIComponent(name)}`, history: [], following: false }));
    }
    // Statuses only for a caller with a channel, as Mastodon does for full-text search.
    const viewer = viewerOf(req);
    const match = want('statuses') && viewer ? searchMatch(req.hub.db, q) : undefined;
    if (viewer && match) {
      const page = readPage({ ...pageParams(req), limit }, (p) => searchTimeline(req.hub.db, match, viewer.channel_hash, CONTENT_VERBS, p), { offset });
      out.statuses = statusesOf(req, page);
    }
    return out;
  },
};
