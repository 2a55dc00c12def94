import { useEffect } from 'react';
import { connect, disconnect } from '../../api/connections.ts';
import { isElsewhere, relationshipWith } from '../../api/people.ts';
import type { User } from '../../api/types.ts';
import { ErrorNote } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useLoad } from '../../hooks/useLoad.ts';

/** While a follow waits for an answer from elsewhere, how often to look whether it came. */
const WAITING_POLL_MS = 2000;

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

  useEffect(() => {
    if (!requested) return;
    const timer = setInterval(() => void rel.reload(), WAITING_POLL_MS);
    return () => clearInterval(timer);
  }, [requested, rel.reload]);

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
      {r.followed_by && <span className="badge badge-quiet">Follows you</span>}
      {r.following ? (
        <>
          <span className="badge">Following</span>
          <button type="button" className="button button-quiet button-small" onClick={() => void unfollow.run()} disabled={busy}>
            {unfollow.busy ? 'Unfollowing…' : 'Unfollow'}
          </button>
        </>
      ) : requested ? (
        <>
          <span className="badge badge-quiet" title={isElsewhere(user) ? 'Waiting for their server to accept' : 'Waiting for their approval'}>
            Requested
          </span>
          <button type="button" className="button button-quiet button-small" onClick={() => void unfollow.run()} disabled={busy}>
            {unfollow.busy ? 'Cancelling…' : 'Cancel request'}
          </button>
        </>
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
