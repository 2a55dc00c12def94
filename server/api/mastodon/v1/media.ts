import type { ApiRequest } from '../../../http/api.js';
import type { MastodonRoute } from '../admit.js';
import { HttpError } from '../../../http/errors.js';
import { mastodonMedia } from '../../../serializers/mastodon/media.js';
import { ownMedia, updateMastodonMedia, uploadMastodonMedia } from '../../../services/mastodon/media.js';
import { pathId } from '../common.js';

async function upload(req: ApiRequest) {
  const file = req.params.file('file');
  if (!file) throw new HttpError(422, 'Validation failed: File is missing');
  const m = await uploadMastodonMedia(req.hub, req.user().channel, file, { description: req.params.str('description'), focus: req.params.str('focus') });
  return mastodonMedia(m);
}

/** POST /api/v1/media: the picture is ready when answered. */
export const mediaV1Route: MastodonRoute = { path: 'media', methods: ['POST'], auth: 'user', scope: 'write:media', handler: upload };

/** GET /api/v1/media/:id: 200 once processed (uploads here are processed before the answer). */
export const mediaShowRoute: MastodonRoute = {
  path: 'media/:id',
  methods: ['GET'],
  auth: 'user',
  scope: 'write:media',
  handler: (req) => mastodonMedia(ownMedia(req.hub, req.user().channel, pathId(req))),
};

/** PUT /api/v1/media/:id: description and focus. */
export const mediaUpdateRoute: MastodonRoute = {
  path: 'media/:id',
  methods: ['PUT'],
  auth: 'user',
  scope: 'write:media',
  handler: (req) => mastodonMedia(updateMastodonMedia(req.hub, req.user().channel, pathId(req), { description: req.params.str('description'), focus: req.params.str('focus') })),
};
