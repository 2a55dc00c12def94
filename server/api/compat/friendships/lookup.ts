import type { ApiRoute } from '../../../http/api.js';
import type { XchanRow } from '../../../store/rows.js';
import { getXchan, getXchanById, isLocalXchan } from '../../../store/xchans.js';
import { badRequest } from '../../../http/errors.js';
import { linkBetween } from '../../../services/compat/relations.js';
import { compatScreenName } from '../../../serializers/compat/user.js';
import { reply } from '../reply.js';
import { xchanByScreenName } from '../who.js';

const MAX = 100;

/**
 * friendships/lookup: how the caller relates to each person of comma-separated user_id /
 * screen_name lists (at most 100), as Twitter's `connections` lists; unknown people are left out.
 */
export const friendshipsLookupRoute: ApiRoute = {
  path: 'friendships/lookup',
  methods: ['GET'],
  auth: 'user',
  handler(req) {
    const db = req.hub.db;
    const me = getXchan(db, req.user().channel.channel_hash)!;
    const ids = req.params.list('user_id');
    const names = req.params.list('screen_name');
    if (!ids.length && !names.length) throw badRequest('user_id or screen_name is required');
    if (ids.length + names.length > MAX) throw badRequest(`at most ${MAX} users per request`);
    const found = new Map<string, XchanRow>();
    for (const id of ids) {
      const x = /^\d{1,15}$/.test(id) ? getXchanById(db, Number(id)) : undefined;
      if (x && !x.xchan_deleted) found.set(x.xchan_hash, x);
    }
    for (const n of names) {
      const x = xchanByScreenName(req, n);
      if (x && !x.xchan_deleted) found.set(x.xchan_hash, x);
    }
    const answer = [...found.values()].map((x) => {
      const out = linkBetween(db, me, x);
      const back = linkBetween(db, x, me);
      const connections: string[] = [];
      if (out.follows) connections.push('following');
      if (out.pending) connections.push('following_requested');
      if (back.pending) connections.push('following_received');
      if (back.follows) connections.push('followed_by');
      if (out.blocks) connections.push('blocking');
      if (!connections.length) connections.push('none');
      const name = compatScreenName(x, isLocalXchan(db, x.xchan_hash));
      return { name: x.xchan_name || name, screen_name: name, id: x.xchan_id, id_str: String(x.xchan_id), connections };
    });
    return reply(answer, 'relationships', { itemName: 'relationship' });
  },
};
