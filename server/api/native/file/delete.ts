import type { ApiRoute } from '../../../http/api.js';
import { deleteFile } from '../../../services/files.js';
import { answeringFilesErrors } from './files-error.js';

/**
 * file/delete (Hearth): deletes one of the channel's files (exact hash in file_id), or a folder
 * with everything in it. Another channel's file is 404, as if it did not exist.
 */
export const fileDelete: ApiRoute = {
  path: 'file/delete',
  methods: ['POST', 'DELETE'],
  auth: 'user',
  async handler({ hub, params, user }) {
    const deleted = await answeringFilesErrors(() => deleteFile(hub, user().channel, params.required('file_id').trim()));
    return { success: true, deleted };
  },
};
