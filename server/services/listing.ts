import type { ListingCursor, ListingSlice } from '../store/attachments.js';

/** Rows are read this many at a time: an answer streamed in batches holds one batch, however long the list. */
export const LISTING_BATCH = 500;

export interface Listing<R> {
  /** The first batch. */
  first: R[];
  /** Whether the first batch is the whole answer. */
  complete: boolean;
  /** Every row of the answer, the first batch and then the others, read as they are reached. */
  rows(): Generator<R>;
}

/**
 * A listing sliced with Hubzilla's `start` and `records`: records rows from the start-th (start
 * applies only with a positive records; 0 means every row). The first batch is read at once; the
 * next ones resume after the last row read, so none costs more than its own rows.
 */
export function readListing<R extends C, C = ListingCursor>(read: (slice: ListingSlice<C>) => R[], start: number, records: number, batch = LISTING_BATCH): Listing<R> {
  const wanted = records > 0 ? records : Infinity;
  const firstLimit = Math.min(batch, wanted);
  const first = read({ limit: firstLimit, offset: records > 0 ? start : 0 });
  const complete = first.length < firstLimit || first.length >= wanted;
  return {
    first,
    complete,
    *rows() {
      yield* first;
      if (complete) return;
      let got = first.length;
      let last = first[first.length - 1]!;
      for (;;) {
        const limit = Math.min(batch, wanted - got);
        const rows = read({ limit, after: last });
        yield* rows;
        got += rows.length;
        if (rows.length < limit || got >= wanted) return;
        last = rows[rows.length - 1]!;
      }
    },
  };
}
