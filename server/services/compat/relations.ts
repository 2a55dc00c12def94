import type { Db } from '../../db/open.js';
import type { XchanRow } from '../../store/rows.js';
import { getChannelByHash } from '../../store/channels.js';
import { getConnection } from '../../store/connections.js';

export interface Link {
  /** `from` follows `to` (an accepted, unblocked connection of a local channel). */
  follows: boolean;
  /** `from` asked to connect and `to` has not answered. */
  pending: boolean;
  blocks: boolean;
}

/** How the local channel of identity `from` relates to `to` (all false when `from` is not local). */
export function linkBetween(db: Db, from: XchanRow, to: XchanRow): Link {
  const ch = getChannelByHash(db, from.xchan_hash);
  const c = ch ? getConnection(db, ch.channel_id, to.xchan_hash) : undefined;
  return { follows: !!c && !c.abook_pending && !c.abook_blocked, pending: !!c && c.abook_pending === 1, blocks: !!c && c.abook_blocked === 1 };
}
