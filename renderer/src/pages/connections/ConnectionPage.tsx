import { useState } from 'react';
import { describeError } from '../../api/http.ts';
import { connect, disconnect, getConnection, isIgnored, isRequest, mayDo, setPermission } from '../../api/connections.ts';
import { relationshipWith } from '../../api/people.ts';
import { socialSettings } from '../../api/socialSettings.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { FollowBadges } from '../../components/FollowBadges.tsx';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useLoad } from '../../hooks/useLoad.ts';
import { useWhileWaiting } from '../../hooks/useWhileWaiting.ts';
import { useNotify } from '../../notices.tsx';
import { Link, navigate } from '../../router.tsx';
import { useSession } from '../../session.tsx';
import { isHere } from '../../addresses.ts';
import { COMMENT_LABEL, COMMENT_PERMISSION, commentHint } from './permissionLabels.ts';
import { RequestAnswer } from './RequestAnswer.tsx';

/** One connection: who it is, how you follow each other, and what it may do on this channel. */
export function ConnectionPage({ abookId }: { abookId: string }) {
  const { session } = useSession();
  const notify = useNotify();
  const data = useLoad(async () => {
    const [connection, mayComment, settings] = await Promise.all([getConnection(abookId), mayDo(abookId, COMMENT_PERMISSION), socialSettings()]);
    return { connection, mayComment, policy: settings.comment_policy };
  }, [abookId]);
  const address = data.data?.connection?.xchan_addr ?? '';
  const relation = useLoad(async () => (address ? relationshipWith(address) : undefined), [address]);
  const rel = relation.data;
  const requested = Boolean(rel?.following_requested && !rel.following);
  useWhileWaiting(requested, relation.reload);

  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const [leaving, setLeaving] = useState(false);
  const follow = useAction(async () => {
    await connect(address);
    await Promise.all([data.reload(), relation.reload()]);
  });
  const cancel = useAction(async (name: string) => {
    await disconnect(address);
    notify(`Your request to ${name} was withdrawn.`, 'info');
    navigate('/connections');
  });

  const toggleComments = async (allowed: boolean) => {
    const loaded = data.data;
    if (!loaded) return;
    setSaving(true);
    setError(undefined);
    // The box shows the choice at once; what the hub then evaluates replaces it.
    data.setData({ ...loaded, mayComment: allowed });
    try {
      await setPermission(abookId, COMMENT_PERMISSION, allowed);
      const now = await mayDo(abookId, COMMENT_PERMISSION);
      data.setData({ ...loaded, mayComment: now });
      if (now !== allowed) setError(`The hub did not change “${COMMENT_LABEL}”: your setting for comments in Settings → Followers and comments decides it.`);
    } catch (err) {
      data.setData(loaded);
      setError(`“${COMMENT_LABEL}” was not changed: ${describeError(err)}`);
    } finally {
      setSaving(false);
    }
  };

  if (data.status === 'loading' && !data.data) return <Loading label="Loading the connection…" />;
  if (data.status === 'error' && !data.data) return <ErrorNote error={`The connection could not be loaded: ${data.error}`} onRetry={data.reload} />;
  const c = data.data?.connection;
  if (!c)
    return (
      <Empty title="This connection does not exist any more.">
        <Link to="/connections">Back to your connections</Link>
      </Empty>
    );
  const { mayComment, policy } = data.data!;
  const name = c.xchan_name || c.xchan_addr || 'They';
  const blocked = String(c.abook_blocked) === '1';
  const busy = follow.busy || cancel.busy;
  // Per connection only while the channel keeps comments to connections, and for a connection indeed.
  const decidedHere = policy === 'connections' && !isRequest(c) && !blocked;

  return (
    <div className="page">
      <p className="back">
        <Link to="/connections">← All connections</Link>
      </p>
      <div className="card person-card">
        <Avatar src={c.xchan_photo_l || c.xchan_photo_m} name={name} size={80} />
        <div className="list-main">
          <h1>{c.xchan_name}</h1>
          <p className="muted">{c.xchan_addr}</p>
          <p className="badges" aria-label={`You and ${name}`}>
            {isRequest(c) && <span className="badge badge-quiet">{isIgnored(c) ? 'Request ignored' : 'Wants to connect'}</span>}
            {rel && <FollowBadges relation={rel} elsewhere={!isHere(session, address)} />}
            {blocked && <span className="badge badge-quiet">Blocked</span>}
          </p>
        </div>
        <div className="page-tools">
          {!isRequest(c) && (
            <Link to={`/stream?connection=${encodeURIComponent(c.abook_id)}`} className="button button-quiet">
              Show posts
            </Link>
          )}
          {rel?.following ? (
            <button type="button" className="button button-quiet button-danger-text" onClick={() => setLeaving(true)}>
              Disconnect
            </button>
          ) : requested ? (
            <button type="button" className="button button-quiet" onClick={() => void cancel.run(name)} disabled={busy}>
              {cancel.busy ? 'Cancelling…' : 'Cancel request'}
            </button>
          ) : (
            rel && (
              <button type="button" className="button button-primary" onClick={() => void follow.run()} disabled={busy}>
                {follow.busy ? 'Connecting…' : rel.followed_by || isRequest(c) ? 'Connect back' : 'Connect'}
              </button>
            )
          )}
        </div>
      </div>
      {follow.error && <ErrorNote error={`Could not connect: ${follow.error}`} />}
      {cancel.error && <ErrorNote error={`The request was not withdrawn: ${cancel.error}`} />}
      {relation.status === 'error' && !rel && <ErrorNote error={`How you and ${name} follow each other could not be loaded: ${relation.error}`} onRetry={relation.reload} />}
      {requested && (
        <p className="notice-box" role="status">
          {isHere(session, address) ? `You follow ${name} once they accept your request: they approve followers by hand.` : `You follow ${name} once their server accepts your request.`}
        </p>
      )}
      {isRequest(c) && (
        <section className="card request-card" aria-label="Connection request">
          <p>
            {isIgnored(c)
              ? `You ignored the request of ${name} to connect. You can still accept it.`
              : `${name} wants to connect with you. If you accept, they follow you and get what you allow below.`}
          </p>
          <RequestAnswer connection={c} onAnswered={() => Promise.all([data.reload(), relation.reload()]).then(() => undefined)} />
        </section>
      )}
      <section className="card" aria-label={`What ${name} may do`}>
        <h2>What {name} may do</h2>
        {error && <ErrorNote error={error} />}
        <label className="choice">
          <input type="checkbox" checked={mayComment} disabled={saving || !decidedHere} onChange={(e) => void toggleComments(e.target.checked)} aria-describedby="comment-hint" />
          <span>{COMMENT_LABEL}</span>
          {saving && <span className="muted"> saving…</span>}
        </label>
        <p className="hint perm-hint" id="comment-hint">
          {blocked ? `You blocked ${name}: they may not.` : isRequest(c) ? 'Not before you accept their request.' : commentHint(policy, name)}
        </p>
        <p className="muted">
          {blocked
            ? `${name} does not see the posts you share with your connections.`
            : isRequest(c)
              ? `Once you accept, ${name} also sees the posts you share with your connections.`
              : `${name} sees the posts you share with your connections, besides your public ones.`}
        </p>
      </section>
      {leaving && (
        <ConfirmDialog
          title={`Disconnect from ${name}?`}
          message="You will stop following them and seeing their posts. If they do not follow you, they lose the permissions you gave them. You can connect again later."
          confirmLabel="Disconnect"
          onConfirm={async () => {
            await disconnect(address);
            navigate('/connections');
          }}
          onClose={() => setLeaving(false)}
        />
      )}
    </div>
  );
}
