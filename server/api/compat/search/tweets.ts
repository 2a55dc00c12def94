import type { ApiRoute } from '../../../http/api.js';
import { loadStatuses } from '../../../services/compat/statuses.js';
import { searchMetadata } from '../../../serializers/compat/search.js';
import { statusOptions } from '../params.js';
import { reply } from '../reply.js';
import { searchItems } from '../search.js';

/** search/tweets: Twitter's answer, {"statuses": [...], "search_metadata": {...}}. */
export const searchTweetsRoute: ApiRoute = {
  path: 'search/tweets',
  methods: '*',
  auth: 'user',
  cache: true,
  handler(req) {
    const started = performance.now();
    const { q, page, items } = searchItems(req);
    const statuses = loadStatuses(req.hub, req.identity?.channel, items, statusOptions(req.params));
    const metadata = searchMetadata({ q, count: page.count, sinceId: page.sinceId, ids: items.map((i) => i.id), full: items.length === page.count, seconds: (performance.now() - started) / 1000 });
    return reply({ statuses, search_metadata: metadata }, 'search', { childNames: { statuses: 'status' } });
  },
};
