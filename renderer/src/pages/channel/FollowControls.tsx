import { connect, disconnect } from '../../api/connections.ts';
import { isElsewhere, relationshipWith } from '../../api/people.ts';
import type { User } from '../../api/types.ts';
import { FollowBadges } from '../../components/FollowBadges.tsx';
import { ErrorNote } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useLoad } from '../../hooks/useLoad.ts';
import { useWhileWaiting } from '../../hooks/useWhileWaiting.ts';

/**
 * How the channel and someone stand (Following, Requested, Follows you), with Follow, Follow
 * back, Unfollow and Cancel request. A follow of someone elsewhere is a request until their server
 * accepts it, which is watched for.
 */
export function FollowControls({ user }: { user: User }) {
  const name = user.screen_name;
  const rel = useLoad(() => relationshipWith(name), [name]);
  const r = rel.data;
  const requested = Boolean(r?.following_requested && !r.following);

  useWhileWaiting(requested, rel.reload);

  const follow = useAction(async () => {
    await connect(name);
    await rel.reload();
  });
  const unfollow = useAction(async () => {
    await disconnect(name);
    await rel.reload();
  });
  const who = user.name || name;
  if (!r) return rel.status === 'error' ? <ErrorNote error={`How you and ${who} stand could not be loaded: ${rel.error}`} onRetry={rel.reload} /> : null;
  const busy = follow.busy || unfollow.busy;

  return (
    <div className="follow-controls" role="group" aria-label={`You and ${who}`}>
      <FollowBadges relation={r} elsewhere={isElsewhere(user)} />
      {r.following || requested ? (
        <button type="button" className="button button-quiet button-small" onClick={() => void unfollow.run()} disabled={busy}>
          {requested ? (unfollow.busy ? 'Cancelling…' : 'Cancel request') : unfollow.busy ? 'Unfollowing…' : 'Unfollow'}
        </button>
      ) : (
        <button type="button" className="button button-primary button-small" onClick={() => void follow.run()} disabled={busy}>
          {follow.busy ? 'Following…' : r.followed_by ? 'Follow back' : 'Follow'}
        </button>
      )}
      {follow.error && <ErrorNote error={`Could not follow ${who}: ${follow.error}`} />}
      {unfollow.error && <ErrorNote error={`Could not unfollow ${who}: ${unfollow.error}`} />}
    </div>
  );
}
