import type { ApiRoute } from '../../../../http/api.js';
import { setTextStream } from '../../../../http/answer-body.js';
import { renderXmlArrayStream } from '../../../../http/xml.js';
import { listPhotoResources, type PhotoListRow } from '../../../../store/photos.js';
import { photoUrls } from '../../../../services/photos.js';
import { readListing } from '../../../../services/listing.js';
import { compatPhotoListEntry, compatPhotoListXml } from '../../../../serializers/compat/photo.js';
import { jsonArrayChunks } from '../../../../util/json-stream.js';
import { jsonpCallback } from '../../jsonp.js';
import { reply } from '../../reply.js';

/**
 * ext/photos/list: every photo of the caller with its thumbnail URL, oldest first (Friendica's).
 * The hub's own parameters: album (exact name) keeps one album's; album_covers=1 only each album's
 * first photo; count (default 100, at most 500) or page (from 1) ask for a page of them.
 *
 * Without a page every photo is listed, as Friendica does; a list longer than a batch is read in
 * batches that resume after the last photo read and streamed as it is read, so the hub holds one
 * batch however many photos there are.
 */
export const extPhotosList: ApiRoute = {
  path: 'ext/photos/list',
  methods: '*',
  auth: 'user',
  handler(req) {
    const { hub, params, ctx } = req;
    const channel = req.user().channel;
    const paged = params.has('count') || params.has('page');
    const count = params.clamped('count', 100, 1, 500);
    const page = params.clamped('page', 1, 1, 1_000_000);
    const query = { album: params.has('album') ? (params.str('album') ?? '') : undefined, covers: params.bool('album_covers') };
    const xml = req.format === 'xml';
    const entry = (row: PhotoListRow) => {
      const url = photoUrls(hub, channel.channel_address, row.resource_id, row.thumb_mimetype).scale(row.thumb_scale);
      return xml ? compatPhotoListXml(row, url) : compatPhotoListEntry(row, url);
    };
    const answer = (rows: PhotoListRow[]) => reply(rows.map(entry), 'photos', { itemName: 'photo' });
    if (paged) return answer(listPhotoResources(hub.db, channel.channel_id, { ...query, limit: count, offset: (page - 1) * count }));
    const listing = readListing((slice) => listPhotoResources(hub.db, channel.channel_id, { ...query, ...slice }), 0, 0);
    if (listing.complete) return answer(listing.first);
    const entries = (function* () {
      for (const row of listing.rows()) yield entry(row);
    })();
    if (xml) {
      setTextStream(ctx, 'text/xml', renderXmlArrayStream('photos', entries, { itemName: 'photo' }));
      return undefined;
    }
    const callback = jsonpCallback(ctx, params.str('callback'));
    if (callback) setTextStream(ctx, 'application/javascript', (function* () {
      yield `${callback}(`;
      yield* jsonArrayChunks(entries);
      yield ')';
    })());
    else setTextStream(ctx, 'application/json', jsonArrayChunks(entries));
    return undefined;
  },
};
