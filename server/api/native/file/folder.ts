import type { ApiRoute } from '../../../http/api.js';
import { attachMeta } from '../../../serializers/native/attach.js';
import { createFolder } from '../../../services/files.js';
import { answeringFilesErrors } from './files-error.js';

/**
 * file/folder (Hearth): creates a folder named `name` in the channel's folder `folder` (a folder
 * hash; absent or empty is the top level). 409 when that folder already holds one of that name.
 */
export const fileFolder: ApiRoute = {
  path: 'file/folder',
  methods: ['POST'],
  auth: 'user',
  async handler({ hub, params, user }) {
    const row = await answeringFilesErrors(() => createFolder(hub, user().channel, params.str('folder')?.trim() || undefined, params.required('name')));
    return { success: true, attach: attachMeta(row) };
  },
};
