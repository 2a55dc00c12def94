import type { ApiRoute } from '../../http/api.js';
import { badRequest, notFound } from '../../http/errors.js';
import { abookWithXchanByHashes, getAbookWithXchan, listAbookWithXchan, type AbookXchanRow } from '../../store/native-records.js';
import { abookRecord } from '../../serializers/native/abook.js';
import { answerArrayListing } from './array-listing.js';

const entry = (r: AbookXchanRow) => abookRecord(r as unknown as Record<string, unknown>);

/** At most this many connections are named at once by xchan (a post's audience, say). */
const MAX_XCHANS = 100;
const MAX_QUERY = 200;

/**
 * abook: the channel's connections (its own entry included) with their xchan, oldest first;
 * abook_id selects one. Every connection, as Hubzilla answers, or a slice with start and records;
 * q narrows them to names or addresses containing it; xchan (repeatable) names connections by hash.
 */
export const abook: ApiRoute = {
  path: 'abook',
  methods: ['GET', 'POST'],
  auth: 'user',
  handler(req) {
    const uid = req.user().channel.channel_id;
    const id = req.params.int('abook_id', { min: 1 });
    if (id !== undefined) {
      const row = getAbookWithXchan(req.hub.db, uid, id);
      if (row === undefined) throw notFound('connection not found');
      return [entry(row)];
    }
    const raw = req.params.values.xchan;
    if (raw !== undefined) {
      const hashes = [...new Set((Array.isArray(raw) ? raw : [raw]).map((h) => h.trim()).filter(Boolean))];
      if (hashes.length > MAX_XCHANS) throw badRequest(`at most ${MAX_XCHANS} xchan at once`);
      return abookWithXchanByHashes(req.hub.db, uid, hashes).map(entry);
    }
    const q = req.params.str('q')?.trim();
    if (q && q.length > MAX_QUERY) throw badRequest(`q is longer than ${MAX_QUERY} characters`);
    return answerArrayListing(req, (slice) => listAbookWithXchan(req.hub.db, uid, slice, q || undefined), entry);
  },
};
