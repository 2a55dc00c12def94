import type { MastodonRoute } from '../../admit.js';
import { statusEdits } from '../../../../store/mastodon.js';
import { withoutLeadingPhotoLines } from '../../../../content/markup.js';
import { isoDate } from '../../../../serializers/mastodon/dates.js';
import { visibleItem } from '../../../../services/mastodon/posting.js';
import { pathId, statusOf, viewerOf } from '../../common.js';

/** GET /api/v1/statuses/:id/history: earlier versions (edits made through this API), then the current one. */
export const statusHistoryRoute: MastodonRoute = {
  path: 'statuses/:id/history',
  methods: ['GET'],
  auth: 'none',
  scope: 'read:statuses',
  handler(req) {
    const item = visibleItem(req.hub, viewerOf(req), pathId(req));
    const now = statusOf(req, item);
    const version = (created: string, content: string, spoiler: string, sensitive: boolean) => ({
      content, spoiler_text: spoiler, sensitive, created_at: created, account: now.account, poll: null, media_attachments: now.media_attachments, emojis: [],
    });
    const earlier = statusEdits(req.hub.db, item.id).map((e) => version(isoDate(e.created), e.html, e.summary, e.sensitive !== 0));
    return [...earlier, version(now.edited_at ?? now.created_at, now.content, now.spoiler_text, now.sensitive)];
  },
};

/** GET /api/v1/statuses/:id/source: the text as written, for editing. */
export const statusSourceRoute: MastodonRoute = {
  path: 'statuses/:id/source',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:statuses',
  handler(req) {
    const item = visibleItem(req.hub, viewerOf(req), pathId(req));
    // The photos' lines go (they come back as media_ids); the rest is the text in its own markup.
    return { id: String(item.id), text: withoutLeadingPhotoLines(item.body), spoiler_text: item.summary };
  },
};
