import type { ApiRoute } from '../../../http/api.js';
import { notFound } from '../../../http/errors.js';
import { getAttachByHash } from '../../../store/attachments.js';
import { fileExportObject } from '../../../services/file-export.js';

/** file/export: one of the channel's files or folders (exact hash) in the form Hubzilla's importer reads. */
export const fileExport: ApiRoute = {
  path: 'file/export',
  methods: ['GET', 'POST'],
  auth: 'user',
  handler({ hub, params, user }) {
    const row = getAttachByHash(hub.db, params.required('file_id'));
    if (!row || row.uid !== user().channel.channel_id) throw notFound('file not found');
    return fileExportObject(hub, row);
  },
};
