import type { ApiRequest, ApiRoute } from '../../../http/api.js';
import { badRequest } from '../../../http/errors.js';
import { postStatus } from '../../../services/compat/post.js';
import { statusReply } from '../status-replies.js';
import { aclFromParams } from './acl-params.js';

function replyTarget(req: ApiRequest): number | undefined {
  const raw = req.params.str('in_reply_to_status_id')?.trim();
  // Twidere sends -1 for "not a reply".
  if (!raw || raw === '-1' || raw === '0') return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw badRequest('in_reply_to_status_id must be a status id');
  return Number(raw);
}

function coordinates(req: ApiRequest): string | undefined {
  const lat = req.params.str('lat')?.trim();
  const long = req.params.str('long')?.trim();
  if (!lat || !long) return undefined;
  const la = Number(lat);
  const lo = Number(long);
  if (!Number.isFinite(la) || !Number.isFinite(lo) || Math.abs(la) > 90 || Math.abs(lo) > 180) throw badRequest('lat and long must be coordinates in degrees');
  return `${la} ${lo}`;
}

function mediaIds(req: ApiRequest): number[] {
  return req.params.list('media_ids').map((v) => {
    if (!/^\d{1,15}$/.test(v)) throw badRequest(`media_ids: not a media id: ${v.slice(0, 40)}`);
    return Number(v);
  });
}

function source(req: ApiRequest): string {
  const s = req.params.str('source')?.trim();
  if (s) return s.slice(0, 64);
  return /twidere/i.test(req.ctx.get('user-agent')) ? 'Twidere' : 'api';
}

/**
 * statuses/update (and update_with_media with requireMedia): posts a status or a reply. `mimetype`
 * (as item/update's: text/bbcode by default, text/markdown, text/plain) says how the text is written.
 */
export async function updateHandler(req: ApiRequest, requireMedia = false) {
  const channel = req.user().channel;
  const files = req.params.fileList('media');
  if (requireMedia && !files.length) throw badRequest('media is required');
  const app = source(req);
  const item = await postStatus(req.hub, channel, {
    text: req.params.str('status') ?? '',
    title: req.params.str('title')?.trim() || undefined,
    mimetype: req.params.str('mimetype')?.trim() || undefined,
    app,
    acl: aclFromParams(req, channel),
    inReplyTo: replyTarget(req),
    coord: coordinates(req),
    mediaIds: mediaIds(req),
    files: files.map((f) => ({ filepath: f.filepath, originalFilename: f.originalFilename, mimetype: f.mimetype })),
  });
  // Debian's bti posts to update.json but reads the answer as XML and fails unless its root is
  // <status>; it names itself in `source`.
  if (app === 'bti' && req.format === 'json') req.format = 'xml';
  return statusReply(req, item);
}

export const statusesUpdate: ApiRoute = {
  path: 'statuses/update',
  methods: ['POST'],
  auth: 'user',
  handler: (req) => updateHandler(req),
};
