import type { MastodonRoute } from '../../admit.js';
import { HttpError } from '../../../../http/errors.js';
import { deleteStatus, editStatus, visibleItem } from '../../../../services/mastodon/posting.js';
import { bodyToText } from '../../../../content/render.js';
import { flag, pathId, statusOf, viewerOf } from '../../common.js';

/** GET /api/v1/statuses/:id. */
export const statusShowRoute: MastodonRoute = {
  path: 'statuses/:id',
  methods: ['GET'],
  auth: 'none',
  scope: 'read:statuses',
  handler: (req) => statusOf(req, visibleItem(req.hub, viewerOf(req), pathId(req))),
};

/** DELETE /api/v1/statuses/:id: answers the deleted status with its source text (for "delete and redraft"). */
export const statusDeleteRoute: MastodonRoute = {
  path: 'statuses/:id',
  methods: ['DELETE'],
  auth: 'user',
  scope: 'write:statuses',
  handler(req) {
    const me = req.user().channel;
    const item = visibleItem(req.hub, me, pathId(req));
    const before = statusOf(req, item);
    deleteStatus(req.hub, me, item.id);
    return { ...before, text: bodyToText(item.body, item.mimetype) };
  },
};

/** PUT /api/v1/statuses/:id: the author edits text, spoiler, sensitivity, media. */
export const statusEditRoute: MastodonRoute = {
  path: 'statuses/:id',
  methods: ['PUT'],
  auth: 'user',
  scope: 'write:statuses',
  async handler(req) {
    const p = req.params;
    const media = p.has('media_ids') ? p.list('media_ids') : undefined;
    if (media?.some((v) => !/^\d{1,15}$/.test(v))) throw new HttpError(422, 'Validation failed: media_ids must be media ids');
    const item = await editStatus(req.hub, req.user().channel, pathId(req), {
      text: p.str('status') ?? '',
      mediaIds: media?.map(Number),
      sensitive: p.has('sensitive') ? flag(req, 'sensitive') : undefined,
      spoilerText: p.has('spoiler_text') ? (p.str('spoiler_text') ?? '').trim() : undefined,
    });
    return statusOf(req, item);
  },
};
