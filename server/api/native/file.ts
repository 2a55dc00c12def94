import type { ApiRoute } from '../../http/api.js';
import { attachWithContent } from '../../serializers/native/attach.js';
import { readWhole, visibleAttach } from '../../services/file-access.js';

/** file: a file record (exact hash) with the whole file base64 in content ('' for folders). */
export const file: ApiRoute = {
  path: 'file',
  methods: ['GET', 'POST'],
  auth: 'user',
  async handler({ hub, params, user }) {
    const row = visibleAttach(hub, user().channel, params.required('file_id'));
    return { attach: attachWithContent(row, await readWhole(hub, row)) };
  },
};
