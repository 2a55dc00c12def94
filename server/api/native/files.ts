import type { ApiRoute } from '../../http/api.js';
import { badRequest } from '../../http/errors.js';
import { setJsonStream } from '../../http/answer-body.js';
import { listAttach, listFolderByName, type AttachListingRow } from '../../store/attachments.js';
import { LISTING_BATCH, readListing } from '../../services/listing.js';
import { attachListing } from '../../serializers/native/attach.js';
import { LazyArray, type JsonMembers } from '../../util/json-stream.js';
import { nowDb, NULL_DATE } from '../../util/time.js';
import { dateParam } from './param-dates.js';

/**
 * files: the channel's files and folders, oldest first. filehash exact, filename and filetype
 * substrings, created between since and until; start applies with a positive records (0 = all).
 * The hub's own: `folder` ('' is the top level) keeps the entries directly in one folder, and with
 * it `order=name` lists them as a file browser does (folders first, then by name), a page of at most
 * 500 (records 0 or more asks for 500) from start; the other filters do not apply there.
 *
 * Hubzilla's importers ask for every file with no records at all, so 0 keeps meaning all; an answer
 * longer than a batch is streamed as it is read, holding one batch in memory however many files
 * there are.
 */
export const files: ApiRoute = {
  path: 'files',
  methods: ['GET', 'POST'],
  auth: 'user',
  cache: true,
  handler({ ctx, hub, params, user }) {
    const start = params.int('start', { min: 0 }) ?? 0;
    const records = params.int('records', { min: 0 }) ?? 0;
    // Hubzilla reads a present but empty since as "now"; only an absent one means the beginning.
    const since = params.has('since') ? (dateParam(params, 'since') ?? nowDb()) : NULL_DATE;
    const until = dateParam(params, 'until') ?? nowDb();
    if (until < since && params.str('since')) throw badRequest('until is before since');
    const filter = {
      filehash: params.str('filehash')?.trim() || undefined,
      filename: params.str('filename') || undefined,
      filetype: params.str('filetype') || undefined,
      folder: params.has('folder') ? (params.str('folder')?.trim() ?? '') : undefined,
      since,
      until,
    };
    const uid = user().channel.channel_id;
    const order = params.str('order');
    if (order !== undefined && order !== 'name') throw badRequest('order must be name');
    if (order === 'name') {
      if (filter.folder === undefined) throw badRequest('order=name lists one folder: folder is missing');
      const limit = records > 0 && records < LISTING_BATCH ? records : LISTING_BATCH;
      const rows = listFolderByName(hub.db, uid, filter.folder, { limit, offset: start });
      return { success: true, results: rows.map(attachListing), start, records: rows.length };
    }
    const listing = readListing((slice) => listAttach(hub.db, uid, filter, slice), start, records);
    const counted = Boolean(start || records);
    if (listing.complete) {
      return { success: true, results: listing.first.map(attachListing), ...(counted ? { start, records: listing.first.length } : {}) };
    }
    let sent = 0;
    const results = function* (rows: Iterable<AttachListingRow>) {
      for (const row of rows) {
        sent++;
        yield attachListing(row);
      }
    };
    setJsonStream(
      ctx,
      (function* (): JsonMembers {
        yield ['success', true];
        yield ['results', new LazyArray(() => results(listing.rows()))];
        if (counted) {
          yield ['start', start];
          yield ['records', sent];
        }
      })(),
    );
    return undefined;
  },
};
