import { useState } from 'react';
import { describeError } from '../../api/http.ts';
import { connect, disconnect, getConnection, isAllowed, isFollowed, isIgnored, isRequest, permissionsOf, setPermission } from '../../api/connections.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useLoad } from '../../hooks/useLoad.ts';
import { Link, navigate } from '../../router.tsx';
import { permissionLabel } from './permissionLabels.ts';
import { RequestAnswer } from './RequestAnswer.tsx';

/** One connection: who it is and what it may do on this channel. */
export function ConnectionPage({ abookId }: { abookId: string }) {
  const data = useLoad(async () => {
    const [connection, perms] = await Promise.all([getConnection(abookId), permissionsOf(abookId)]);
    return { connection, perms };
  }, [abookId]);
  const [saving, setSaving] = useState<string>();
  const [error, setError] = useState<string>();
  const [leaving, setLeaving] = useState(false);
  const followBack = useAction(async (address: string) => {
    await connect(address);
    await data.reload();
  });

  const toggle = async (perm: string, allowed: boolean) => {
    setSaving(perm);
    setError(undefined);
    try {
      await setPermission(abookId, perm, allowed);
      const fresh = await permissionsOf(abookId);
      data.setData({ connection: data.data?.connection, perms: fresh });
      const now = fresh.find((p) => p.perm === perm);
      if (now && isAllowed(now) !== allowed) setError(`The hub did not change “${permissionLabel(perm)}”. It may be decided by the channel's general privacy settings.`);
    } catch (err) {
      setError(`“${permissionLabel(perm)}” was not changed: ${describeError(err)}`);
    } finally {
      setSaving(undefined);
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

  return (
    <div className="page">
      <p className="back">
        <Link to="/connections">← All connections</Link>
      </p>
      <div className="card person-card">
        <Avatar src={c.xchan_photo_l || c.xchan_photo_m} name={c.xchan_name ?? '?'} size={80} />
        <div className="list-main">
          <h1>{c.xchan_name}</h1>
          <p className="muted">{c.xchan_addr}</p>
          {isRequest(c) && <p className="badge badge-quiet">{isIgnored(c) ? 'Request ignored' : 'Wants to connect'}</p>}
          {!isRequest(c) && !isFollowed(c) && String(c.abook_blocked) !== '1' && <p className="badge badge-quiet">Follows you</p>}
        </div>
        <div className="page-tools">
          {!isRequest(c) && (
            <Link to={`/stream?connection=${encodeURIComponent(c.abook_id)}`} className="button button-quiet">
              Show posts
            </Link>
          )}
          {isFollowed(c) ? (
            <button type="button" className="button button-quiet button-danger-text" onClick={() => setLeaving(true)}>
              Disconnect
            </button>
          ) : (
            <button type="button" className="button button-primary" onClick={() => void followBack.run(c.xchan_addr ?? '')} disabled={followBack.busy}>
              {followBack.busy ? 'Connecting…' : 'Connect back'}
            </button>
          )}
        </div>
      </div>
      {followBack.error && <ErrorNote error={`Could not connect: ${followBack.error}`} />}
      {isRequest(c) && (
        <section className="card request-card" aria-label="Connection request">
          <p>
            {isIgnored(c)
              ? `You ignored the request of ${c.xchan_name} to connect. You can still accept it.`
              : `${c.xchan_name} wants to connect with you. If you accept, they follow you and get what you allow below.`}
          </p>
          <RequestAnswer connection={c} onAnswered={() => data.reload()} />
        </section>
      )}
      <section className="card">
        <h2>What {c.xchan_name} may do</h2>
        {error && <ErrorNote error={error} />}
        {data.data!.perms.length === 0 ? (
          <p className="muted">The hub did not report any permissions for this connection.</p>
        ) : (
          <ul className="perm-list">
            {data.data!.perms.map((p) => (
              <li key={p.perm}>
                <label className="choice">
                  <input type="checkbox" checked={isAllowed(p)} disabled={saving !== undefined} onChange={(e) => void toggle(p.perm, e.target.checked)} />
                  <span>{permissionLabel(p.perm)}</span>
                  {saving === p.perm && <span className="muted"> saving…</span>}
                </label>
              </li>
            ))}
          </ul>
        )}
      </section>
      {leaving && (
        <ConfirmDialog
          title={`Disconnect from ${c.xchan_name}?`}
          message="You will stop following them and seeing their posts. If they do not follow you, they lose the permissions you gave them. You can connect again later."
          confirmLabel="Disconnect"
          onConfirm={async () => {
            await disconnect(c.xchan_addr ?? '');
            navigate('/connections');
          }}
          onClose={() => setLeaving(false)}
        />
      )}
    </div>
  );
}
