import type { ApiRoute } from '../../../http/api.js';
import { attachAtOffset, countAttach } from '../../../store/attachments.js';
import { fileExportObject } from '../../../services/file-export.js';

/**
 * file/export_page: the channel's files and folders one per page (page counts from 0, oldest
 * first), each as a file/export object. Past the end: success false with the total, which is
 * how importers know they are done.
 */
export const fileExportPage: ApiRoute = {
  path: 'file/export_page',
  methods: ['GET', 'POST'],
  auth: 'user',
  async handler({ hub, params, user }) {
    const uid = user().channel.channel_id;
    const page = params.int('page', { min: 0, max: 1_000_000_000 }) ?? 0;
    const total = countAttach(hub.db, uid);
    const row = attachAtOffset(hub.db, uid, page);
    if (!row) return { success: false, total, results: [] };
    return { success: true, total, results: [await fileExportObject(hub, row)] };
  },
};
