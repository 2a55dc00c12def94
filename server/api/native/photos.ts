import type { ApiRoute } from '../../http/api.js';
import { setJsonStream } from '../../http/answer-body.js';
import { listPhotoRows, type PhotoListingRow } from '../../store/photos.js';
import { photoListing } from '../../serializers/native/photo.js';
import { photoUrls } from '../../services/photos.js';
import { readListing } from '../../services/listing.js';
import { LazyArray } from '../../util/json-stream.js';

/**
 * photos: metadata of the channel's photos, one entry per scale, oldest first, optionally of one
 * album ('/' is the root album). Hubzilla lists them all; the hub also takes the files listing's
 * start and records (records 0 = all), and streams an answer longer than a batch as it is read.
 */
export const photos: ApiRoute = {
  path: 'photos',
  methods: ['GET', 'POST'],
  auth: 'user',
  handler({ ctx, hub, params, user }) {
    const channel = user().channel;
    const start = params.int('start', { min: 0 }) ?? 0;
    const records = params.int('records', { min: 0 }) ?? 0;
    const asked = params.str('album');
    const album = asked === undefined ? undefined : asked === '/' ? '' : asked;
    const listing = readListing((slice) => listPhotoRows(hub.db, channel.channel_id, album, slice), start, records);
    const entry = (r: PhotoListingRow) => photoListing(r, photoUrls(hub, channel.channel_address, r.resource_id, r.mimetype).scale(r.imgscale));
    if (listing.complete) return { success: true, photos: listing.first.map(entry) };
    const entries = function* () {
      for (const row of listing.rows()) yield entry(row);
    };
    setJsonStream(ctx, [['success', true], ['photos', new LazyArray(entries)]]);
    return undefined;
  },
};
