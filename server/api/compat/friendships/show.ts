import type { ApiRequest, ApiRoute } from '../../../http/api.js';
import type { XchanRow } from '../../../store/rows.js';
import { linkBetween } from '../../../services/compat/relations.js';
import { getXchan, isLocalXchan } from '../../../store/xchans.js';
import { followStates } from '../../../store/social-graph.js';
import { badRequest, forbidden, notFound } from '../../../http/errors.js';
import { relationship, type RelationFacts } from '../../../serializers/compat/relationship.js';
import { reply } from '../reply.js';
import { xchanByScreenName, xchanByUserId } from '../who.js';

function person(req: ApiRequest, idName: string, nameName: string): XchanRow | undefined {
  const id = req.params.str(idName)?.trim();
  const name = req.params.str(nameName)?.trim();
  if (!id && !name) return undefined;
  const x = id ? xchanByUserId(req, id) : xchanByScreenName(req, name!);
  if (!x || x.xchan_deleted) throw notFound('User not found.');
  return x;
}

/** friendships/show: how the caller (source) and a target relate, in Twitter's relationship shape. */
export const friendshipsShowRoute: ApiRoute = {
  path: 'friendships/show',
  methods: ['GET'],
  auth: 'user',
  handler(req) {
    const me = req.user().channel;
    const source = person(req, 'source_id', 'source_screen_name');
    if (source && source.xchan_hash !== me.channel_hash) throw forbidden('relationships of other users cannot be shown');
    const target = person(req, 'target_id', 'target_screen_name');
    if (!target) throw badRequest('target_id or target_screen_name is required');
    const self = source ?? getXchan(req.hub.db, me.channel_hash)!;
    const out = linkBetween(req.hub.db, self, target);
    // Both ways from the caller's side, which knows people elsewhere who follow it too.
    const both = followStates(req.hub.db, me.channel_id, me.channel_hash, [target.xchan_hash]).get(target.xchan_hash);
    const facts: RelationFacts = { source: self, target, targetLocal: isLocalXchan(req.hub.db, target.xchan_hash), following: out.follows, followedBy: Boolean(both?.followedBy), requested: out.pending, requestedBy: Boolean(both?.requestedBy), blocking: out.blocks };
    const value = relationship(facts);
    return req.format === 'json' ? reply(value, 'relationship') : reply(value.relationship, 'relationship');
  },
};
