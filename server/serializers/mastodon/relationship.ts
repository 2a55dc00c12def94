export interface RelationFacts {
  id: number;
  following: boolean;
  requested: boolean;
  followedBy: boolean;
  requestedBy: boolean;
  blocking: boolean;
  muting: boolean;
  /** Told of each of their posts. */
  notifying: boolean;
}

/** Mastodon's Relationship entity. */
export function mastodonRelationship(r: RelationFacts) {
  return {
    id: String(r.id),
    following: r.following && !r.requested,
    showing_reblogs: r.following,
    notifying: r.notifying,
    languages: null,
    followed_by: r.followedBy,
    blocking: r.blocking,
    blocked_by: false,
    muting: r.muting,
    muting_notifications: r.muting,
    requested: r.requested,
    requested_by: r.requestedBy,
    domain_blocking: false,
    endorsed: false,
    note: '',
  };
}
