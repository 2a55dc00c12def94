import type { ApiRoute } from '../../../http/api.js';
import { updateHandler } from './update.js';

/** statuses/update_with_media: statuses/update with at least one file in `media` / `media[]`. */
export const statusesUpdateWithMedia: ApiRoute = {
  path: 'statuses/update_with_media',
  methods: ['POST'],
  auth: 'user',
  handler: (req) => updateHandler(req, true),
};
