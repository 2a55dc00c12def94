import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ApiRequest, ApiRoute } from '../../../http/api.js';
import { uploadMedia, type UploadedMedia } from '../../../services/media.js';
import { appendUpload, finalizeUpload, initUpload, type Segment } from '../../../services/chunked-media.js';
import { getPhotoById } from '../../../store/photos.js';
import { compatMedia } from '../../../serializers/compat/media.js';
import { badRequest, notFound } from '../../../http/errors.js';
import { reply, type CompatReply } from '../reply.js';

function mediaReply(m: UploadedMedia): CompatReply {
  return reply(compatMedia({ id: m.mediaId, size: m.attach.filesize, width: m.photo.width, height: m.photo.height, mimetype: m.photo.mimetype, previewUrl: m.previewUrl }), 'media');
}

/** The bytes of a base64 `media_data` parameter; undefined when absent, 400 when it is not base64. */
function mediaData(req: ApiRequest): Buffer | undefined {
  const raw = req.params.str('media_data');
  if (raw === undefined) return undefined;
  const text = raw.replace(/\s+/g, '');
  if (!text || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) throw badRequest('media_data must be base64');
  return Buffer.from(text, 'base64');
}

/** The picture of a request: the `media` file part, or `media_data` written to a temporary file. */
async function mediaFile(req: ApiRequest): Promise<{ filepath: string; originalFilename: string | null; mimetype: string | null } | undefined> {
  const file = req.params.file('media');
  if (file) return file;
  const bytes = mediaData(req);
  if (!bytes) return undefined;
  const filepath = join(req.hub.dataDir, 'tmp', `media-data-${randomBytes(12).toString('hex')}`);
  await writeFile(filepath, bytes);
  return { filepath, originalFilename: null, mimetype: null };
}

function mediaIdParam(req: ApiRequest): number {
  const raw = req.params.str('media_id')?.trim();
  if (!raw) throw badRequest('media_id is required');
  if (!/^\d{1,15}$/.test(raw)) throw badRequest('media_id must be a media id');
  return Number(raw);
}

async function chunked(req: ApiRequest, command: string): Promise<CompatReply | undefined> {
  const channel = req.user().channel;
  const p = req.params;
  switch (command) {
    case 'INIT': {
      const total = p.int('total_bytes', { min: 1 });
      const type = p.str('media_type')?.trim();
      if (total === undefined) throw badRequest('total_bytes is required');
      if (!type) throw badRequest('media_type is required');
      const mediaId = await initUpload(req.hub, channel, total, type);
      return reply({ media_id: mediaId, media_id_string: String(mediaId), expires_after_secs: 86400 }, 'media');
    }
    case 'APPEND': {
      const mediaId = mediaIdParam(req);
      const index = p.int('segment_index', { min: 0 });
      if (index === undefined) throw badRequest('segment_index is required');
      const file = p.file('media');
      const bytes = file ? undefined : mediaData(req);
      if (!file && !bytes) throw badRequest('media or media_data is required');
      const segment: Segment = file ? { filepath: file.filepath } : { bytes: bytes! };
      await appendUpload(req.hub, channel, mediaId, index, segment);
      // Twitter answers an APPEND with an empty 2xx; clients read no body.
      req.ctx.status = 204;
      req.ctx.body = null;
      return undefined;
    }
    case 'FINALIZE':
      return mediaReply(await finalizeUpload(req.hub, channel, mediaIdParam(req)));
    case 'STATUS': {
      const mediaId = mediaIdParam(req);
      const photo = getPhotoById(req.hub.db, mediaId);
      if (!photo || photo.uid !== channel.channel_id || photo.imgscale !== 0) throw notFound(`no media with media_id ${mediaId}`);
      // Pictures are ready once FINALIZE answers; nothing is processed afterwards.
      return reply({ media_id: mediaId, media_id_string: String(mediaId), expires_after_secs: 86400, processing_info: { state: 'succeeded', progress_percent: 100 } }, 'media');
    }
    default:
      throw badRequest('command must be INIT, APPEND, FINALIZE or STATUS');
  }
}

/**
 * media/upload: stores a picture for a later statuses/update media_ids — in one request (multipart
 * `media`, or base64 `media_data`), or in parts with Twitter's command=INIT/APPEND/FINALIZE, whose
 * progress command=STATUS reports (GET or POST).
 */
export const mediaUploadRoute: ApiRoute = {
  path: 'media/upload',
  methods: ['GET', 'POST', 'PUT'],
  auth: 'user',
  async handler(req) {
    const command = req.params.str('command')?.trim().toUpperCase();
    if (req.ctx.method === 'GET' || req.ctx.method === 'HEAD') {
      if (command !== 'STATUS') throw badRequest('GET media/upload answers command=STATUS; uploads are POSTed');
      return chunked(req, command);
    }
    if (command) return chunked(req, command);
    const file = await mediaFile(req);
    if (!file) throw badRequest('No media.');
    try {
      return mediaReply(await uploadMedia(req.hub, req.user().channel, file));
    } finally {
      // A decoded media_data file the store did not take (the body parser removes uploaded parts itself).
      if (!req.params.file('media')) await rm(file.filepath, { force: true });
    }
  },
};
