import type { ApiRoute } from '../../../http/api.js';
import type { MastodonRoute } from '../admit.js';
import { HttpError } from '../../../http/errors.js';
import { getPConfig } from '../../../store/config.js';
import { createStatus } from '../../../services/mastodon/posting.js';
import { isVisibility } from '../../../services/mastodon/visibility.js';
import { flag, statusOf } from '../common.js';

function mediaIds(values: string[]): number[] {
  return values.map((v) => {
    if (!/^\d{1,15}$/.test(v)) throw new HttpError(422, `Validation failed: media_ids: not a media id: ${v.slice(0, 40)}`);
    return Number(v);
  });
}

/** POST /api/v1/statuses: text, in_reply_to_id, media_ids, sensitive, spoiler_text, visibility, Idempotency-Key. */
export const statusesCreateRoute: MastodonRoute = {
  path: 'statuses',
  methods: ['POST'],
  auth: 'user',
  scope: 'write:statuses',
  async handler(req) {
    const p = req.params;
    const me = req.user().channel;
    if (p.has('poll')) throw new HttpError(422, 'Validation failed: polls are not supported by this server');
    if (p.has('scheduled_at') && p.str('scheduled_at')) throw new HttpError(422, 'Validation failed: scheduled posts are not supported by this server');
    const visibility = p.str('visibility')?.trim() || getPConfig(req.hub.db, me.channel_id, 'mastodon', 'privacy') || 'public';
    if (!isVisibility(visibility)) throw new HttpError(422, 'Validation failed: visibility must be public, unlisted, private or direct');
    const reply = p.str('in_reply_to_id')?.trim();
    if (reply && !/^\d{1,15}$/.test(reply)) throw new HttpError(404, 'Record not found');
    const key = req.ctx.get('idempotency-key').trim().slice(0, 190);
    const item = await createStatus(req.hub, me, {
      text: p.str('status') ?? '',
      inReplyToId: reply ? Number(reply) : undefined,
      mediaIds: mediaIds(p.list('media_ids')),
      sensitive: flag(req, 'sensitive'),
      spoilerText: (p.str('spoiler_text') ?? '').trim(),
      visibility,
      app: req.identity?.oauthClient ? appName(req) : 'api',
      idempotencyKey: key || undefined,
    });
    return statusOf(req, item);
  },
};

function appName(req: Parameters<ApiRoute['handler']>[0]): string {
  const grant = req.ctx.state.oauth2 as { app?: { name: string } } | undefined;
  return grant?.app?.name.slice(0, 64) ?? 'api';
}
