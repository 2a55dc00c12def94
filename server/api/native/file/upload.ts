import type { ApiRoute } from '../../../http/api.js';
import { badRequest } from '../../../http/errors.js';
import { attachMeta } from '../../../serializers/native/attach.js';
import { uploadFile } from '../../../services/files.js';
import { answeringFilesErrors } from './files-error.js';

/**
 * file/upload (Hearth; Hubzilla's API has no upload): stores the multipart part `file` in the
 * channel's folder `folder` (a folder hash; absent or empty is the top level). The file is the
 * channel's own: only it may list, read or delete it. Answers the new record without content.
 */
export const fileUpload: ApiRoute = {
  path: 'file/upload',
  methods: ['POST'],
  auth: 'user',
  async handler({ hub, params, user }) {
    const file = params.file('file') ?? params.file('media');
    if (!file) throw badRequest('file is required (a multipart file part)');
    const row = await answeringFilesErrors(() => uploadFile(hub, user().channel, file, params.str('folder')?.trim() || undefined));
    return { success: true, attach: attachMeta(row) };
  },
};
