import type { ApiRequest } from '../../http/api.js';
import { setJsonArrayStream } from '../../http/answer-body.js';
import { readListing } from '../../services/listing.js';
import type { ListingSlice } from '../../store/attachments.js';

/**
 * A native listing answered as a bare JSON array (abook, group_members): every row, as Hubzilla
 * answers, or with the files listing's start and records (records 0 = all) a slice. An answer longer
 * than a batch is streamed as it is read, so the hub holds one batch however long the list.
 * Returns the entries, or undefined once it has set a streamed body.
 */
export function answerArrayListing<R>(req: Pick<ApiRequest, 'ctx' | 'params'>, read: (slice: ListingSlice<R>) => R[], entry: (row: R) => unknown): unknown[] | undefined {
  const start = req.params.int('start', { min: 0 }) ?? 0;
  const records = req.params.int('records', { min: 0 }) ?? 0;
  const listing = readListing<R, R>(read, start, records);
  if (listing.complete) return listing.first.map(entry);
  setJsonArrayStream(req.ctx, (function* () {
    for (const row of listing.rows()) yield entry(row);
  })());
  return undefined;
}
