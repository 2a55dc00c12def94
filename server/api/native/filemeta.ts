import type { ApiRoute } from '../../http/api.js';
import { attachMeta } from '../../serializers/native/attach.js';
import { visibleAttach } from '../../services/file-access.js';

/** filemeta: a file record (exact hash) without its content. */
export const filemeta: ApiRoute = {
  path: 'filemeta',
  methods: ['GET', 'POST'],
  auth: 'user',
  handler({ hub, params, user }) {
    return { attach: attachMeta(visibleAttach(hub, user().channel, params.required('file_id'))) };
  },
};
