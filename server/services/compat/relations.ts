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

/** How the local channel of identity `from` relates to `to` (all false when `from` is not local). */
export function linkBetween(db: Db, from: XchanRow, to: XchanRow): Link {
  const ch = getChannelByHash(db, from.xchan_hash);
  if (!ch) return { follows: false, pending: false, blocks: false };
  const state = followStates(db, ch.channel_id, ch.channel_hash, [to.xchan_hash]).get(to.xchan_hash);
  const c = getConnection(db, ch.channel_id, to.xchan_hash);
  return { follows: Boolean(state?.following), pending: Boolean(state?.requested), blocks: !!c && !c.abook_self && c.abook_blocked === 1 };
}
