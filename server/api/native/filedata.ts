import type { ApiRoute } from '../../http/api.js';
import { attachChunk } from '../../serializers/native/attach.js';
import { readChunk, visibleAttachByPrefix } from '../../services/file-access.js';

/**
 * filedata: a chunk of a file, base64 in content. file_id is matched as the beginning of the
 * hash (own files first, then by id); start counts from 0; length 0 or absent reads to the end.
 */
export const filedata: ApiRoute = {
  path: 'filedata',
  methods: ['GET', 'POST'],
  auth: 'user',
  async handler({ hub, params, user }) {
    const fileId = params.required('file_id');
    const start = params.int('start', { min: 0 }) ?? 0;
    const length = params.int('length', { min: 0 });
    const row = visibleAttachByPrefix(hub, user().channel, fileId);
    return { attach: attachChunk(row, row.is_dir ? undefined : await readChunk(hub, row, start, length)) };
  },
};
