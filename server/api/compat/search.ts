import type { ApiRequest, ApiRoute } from '../../http/api.js';
import type { StatusItemRow } from '../../store/rows.js';
import type { TimelinePage } from '../../store/item-timelines.js';
import { hashtagTimeline, searchTimeline } from '../../store/item-timelines.js';
import { searchMatch } from '../../store/fts.js';
import { CONTENT_VERBS } from '../../services/verbs.js';
import { badRequest } from '../../http/errors.js';
import { timelinePage } from './params.js';
import { TIMELINE_FORMATS, timelineReply } from './status-replies.js';

/**
 * `#tag` finds statuses tagged so; other text finds statuses containing every word. Only what the
 * caller may see, newest first.
 */
export function searchItems(req: ApiRequest): { q: string; page: TimelinePage; items: StatusItemRow[] } {
  const me = req.user().channel;
  const q = req.params.str('q')?.trim();
  if (!q) throw badRequest('q parameter is required.');
  if (q.length > 500) throw badRequest('q is too long');
  const page = timelinePage(req.params, { countAlias: 'rpp' });
  const tag = /^#([\p{L}\p{N}_][\p{L}\p{N}_-]*)$/u.exec(q);
  const match = tag ? undefined : searchMatch(req.hub.db, q);
  const items = tag
    ? hashtagTimeline(req.hub.db, tag[1]!, me.channel_hash, CONTENT_VERBS, page)
    : match
      ? searchTimeline(req.hub.db, match, me.channel_hash, CONTENT_VERBS, page)
      : [];
  return { q, page, items };
}

/** search (the StatusNet/Friendica path): a plain array of statuses, as Friendica clients read it. */
export const searchRoute: ApiRoute = {
  path: 'search',
  methods: '*',
  auth: 'user',
  formats: TIMELINE_FORMATS,
  cache: true,
  handler(req) {
    const { q, items } = searchItems(req);
    return timelineReply(req, items, `Search: ${q}`);
  },
};
