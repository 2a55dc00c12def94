import type { ApiRoute } from '../../http/api.js';
import { notFound } from '../../http/errors.js';
import { getAbookWithXchan, listAbookWithXchan, type AbookXchanRow } from '../../store/native-records.js';
import { abookRecord } from '../../serializers/native/abook.js';
import { answerArrayListing } from './array-listing.js';

const entry = (r: AbookXchanRow) => abookRecord(r as unknown as Record<string, unknown>);

/**
 * abook: the channel's connections (its own entry included) with their xchan, oldest first;
 * abook_id selects one. Every connection, as Hubzilla answers, or a slice with start and records.
 */
export const abook: ApiRoute = {
  path: 'abook',
  methods: ['GET', 'POST'],
  auth: 'user',
  handler(req) {
    const uid = req.user().channel.channel_id;
    const id = req.params.int('abook_id', { min: 1 });
    if (id === undefined) return answerArrayListing(req, (slice) => listAbookWithXchan(req.hub.db, uid, slice), entry);
    const row = getAbookWithXchan(req.hub.db, uid, id);
    if (row === undefined) throw notFound('connection not found');
    return [entry(row)];
  },
};
