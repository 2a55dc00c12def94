import type { Db } from '../../db/open.js';
import type { XchanRow } from '../../store/rows.js';
import { getChannelByHash } from '../../store/channels.js';
import { getConnection } from '../../store/connections.js';
import { followStates } from '../../store/social-graph.js';

export interface Link {
  /** `from` follows `to` (an accepted follow of a local channel). */
  follows: boolean;
  /** `from` follows `to` and waits for its approval. */
  pending: boolean;
  blocks: boolean;
}

/**
 * How identity `from` relates to `to`: seen from `from`'s channel when it is one of the hub's; for
 * someone elsewhere, from the channel `to` (their follow of it, as the federation recorded it; what
 * they block is not known here). All false when neither is a channel of the hub.
 */
export function linkBetween(db: Db, from: XchanRow, to: XchanRow): Link {
  const ch = getChannelByHash(db, from.xchan_hash);
  if (!ch) {
    const target = getChannelByHash(db, to.xchan_hash);
    const state = target && followStates(db, target.channel_id, target.channel_hash, [from.xchan_hash]).get(from.xchan_hash);
    return { follows: Boolean(state?.followedBy), pending: Boolean(state?.requestedBy), blocks: false };
  }
  const state = followStates(db, ch.channel_id, ch.channel_hash, [to.xchan_hash]).get(to.xchan_hash);
  const c = getConnection(db, ch.channel_id, to.xchan_hash);
  return { follows: Boolean(state?.following), pending: Boolean(state?.requested), blocks: !!c && !c.abook_self && c.abook_blocked === 1 };
}
