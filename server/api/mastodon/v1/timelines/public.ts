import type { MastodonRoute } from '../../admit.js';
import { hashtagTimeline, publicTimeline } from '../../../../store/item-timelines.js';
import { mastodonItemConfig } from '../../../../store/mastodon.js';
import { CONTENT_VERBS } from '../../../../services/verbs.js';
import type { StatusItemRow } from '../../../../store/rows.js';
import { flag, pageParams, readPage, statusPage, viewerOf } from '../../common.js';
import type { ApiRequest } from '../../../../http/api.js';

/** Unlisted posts are public but stay out of the tag timelines (publicTimeline leaves them out itself). */
function listed(req: ApiRequest, items: StatusItemRow[]): StatusItemRow[] {
  const conf = mastodonItemConfig(req.hub.db, items.map((i) => i.id));
  return items.filter((i) => conf.get(i.id)?.visibility !== 'unlisted');
}

/** GET /api/v1/timelines/public: public posts (local=true: written on this hub; remote=true: none). */
export const publicTimelineRoute: MastodonRoute = {
  path: 'timelines/public',
  methods: ['GET'],
  auth: 'none',
  scope: 'read:statuses',
  handler(req) {
    if (flag(req, 'remote')) return [];
    const observer = viewerOf(req)?.channel_hash ?? '';
    const local = flag(req, 'local');
    const onlyMedia = flag(req, 'only_media');
    let items = readPage(pageParams(req), (p) => publicTimeline(req.hub.db, observer, CONTENT_VERBS, p, local));
    if (onlyMedia) items = items.filter((i) => /\/attach\/[0-9a-f]{64}/.test(i.attach));
    return statusPage(req, items);
  },
};

/** GET /api/v1/timelines/tag/:hashtag. */
export const tagTimelineRoute: MastodonRoute = {
  path: 'timelines/tag/:hashtag',
  methods: ['GET'],
  auth: 'none',
  scope: 'read:statuses',
  handler(req) {
    const observer = viewerOf(req)?.channel_hash ?? '';
    const tag = (req.pathParams.hashtag ?? '').replace(/^#/, '').slice(0, 64);
    return statusPage(req, listed(req, readPage(pageParams(req), (p) => hashtagTimeline(req.hub.db, tag, observer, CONTENT_VERBS, p))));
  },
};
