import type { Relationship } from '../api/people.ts';

/**
 * How the channel and someone follow each other, in the same words on every screen: Following,
 * or Requested while their approval (or their server's) is awaited; Follows you.
 */
export function FollowBadges({ relation, elsewhere }: { relation: Relationship; elsewhere: boolean }) {
  const requested = relation.following_requested && !relation.following;
  return (
    <>
      {relation.following && <span className="badge">Following</span>}
      {requested && (
        <span className="badge badge-quiet" title={elsewhere ? 'Waiting for their server to accept' : 'Waiting for their approval'}>
          Requested
        </span>
      )}
      {relation.followed_by && <span className="badge badge-quiet">Follows you</span>}
    </>
  );
}
