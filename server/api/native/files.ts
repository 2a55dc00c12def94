import type { ApiRoute } from '../../http/api.js';
import { badRequest } from '../../http/errors.js';
import { listAttach } from '../../store/attachments.js';
import { attachListing } from '../../serializers/native/attach.js';
import { nowDb, NULL_DATE } from '../../util/time.js';
import { dateParam } from './param-dates.js';

/**
 * files: the channel's files and folders, oldest first. filehash exact, filename and filetype
 * substrings, created between since and until; start applies with a positive records (0 = all).
 */
export const files: ApiRoute = {
  path: 'files',
  methods: ['GET', 'POST'],
  auth: 'user',
  cache: true,
  handler({ hub, params, user }) {
    const start = params.int('start', { min: 0 }) ?? 0;
    const records = params.int('records', { min: 0 }) ?? 0;
    // Hubzilla reads a present but empty since as "now"; only an absent one means the beginning.
    const since = params.has('since') ? (dateParam(params, 'since') ?? nowDb()) : NULL_DATE;
    const until = dateParam(params, 'until') ?? nowDb();
    if (until < since && params.str('since')) throw badRequest('until is before since');
    const rows = listAttach(hub.db, user().channel.channel_id, {
      filehash: params.str('filehash')?.trim() || undefined,
      filename: params.str('filename') || undefined,
      filetype: params.str('filetype') || undefined,
      start,
      records,
      since,
      until,
    });
    const out: Record<string, unknown> = { success: true, results: rows.map(attachListing) };
    if (start || records) Object.assign(out, { start, records: rows.length });
    return out;
  },
};
