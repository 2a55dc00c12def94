import type { XchanRow } from '../../store/rows.js';
import { compatScreenName } from './user.js';

export interface RelationFacts {
  /** A channel of the hub. */
  source: XchanRow;
  target: XchanRow;
  /** The target is a channel of the hub too. */
  targetLocal: boolean;
  /** Source follows target. */
  following: boolean;
  /** Target follows source. */
  followedBy: boolean;
  /** Source's follow waits for target's approval. */
  requested: boolean;
  /** Target asked to follow source, waiting for its answer. */
  requestedBy: boolean;
  blocking: boolean;
}

/** Twitter's friendships/show answer. */
export function relationship(f: RelationFacts) {
  const ids = (x: XchanRow, local: boolean) => ({ id: x.xchan_id, id_str: String(x.xchan_id), screen_name: compatScreenName(x, local) });
  return {
    relationship: {
      source: {
        ...ids(f.source, true),
        following: f.following,
        followed_by: f.followedBy,
        following_requested: f.requested,
        following_received: f.requestedBy,
        blocking: f.blocking,
        muting: false,
        notifications_enabled: false,
        can_dm: f.following && f.followedBy,
        want_retweets: true,
        all_replies: false,
        marked_spam: false,
      },
      target: { ...ids(f.target, f.targetLocal), following: f.followedBy, followed_by: f.following, following_requested: f.requestedBy, following_received: f.requested },
    },
  };
}
