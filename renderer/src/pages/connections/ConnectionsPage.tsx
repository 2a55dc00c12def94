import { useState, type FormEvent } from 'react';
import { connect, isIgnored, isRequest, listConnections } from '../../api/connections.ts';
import { relationshipsWith } from '../../api/people.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { FollowBadges } from '../../components/FollowBadges.tsx';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useLoad } from '../../hooks/useLoad.ts';
import { useWhileWaiting } from '../../hooks/useWhileWaiting.ts';
import { Link } from '../../router.tsx';
import { useNotify } from '../../notices.tsx';
import { useSession } from '../../session.tsx';
import { addressHere, isHere } from '../../addresses.ts';

/** The channel's connections, and connecting to another channel by its address (`connect` fills it in). */
export function ConnectionsPage({ connect: suggested = '' }: { connect?: string }) {
  const { session } = useSession();
  // Who they are (the channel's records), and how each and the channel follow each other.
  const connections = useLoad(async () => {
    const list = await listConnections();
    const relations = await relationshipsWith(list.flatMap((c) => (c.xchan_addr ? [c.xchan_addr] : [])), session.addressHost);
    return { list, relations };
  }, [session.addressHost]);
  const relationOf = (address = '') => connections.data?.relations.get(address.toLowerCase());
  // A request the channel sent shows Following as soon as it is accepted.
  const waiting = (connections.data?.list ?? []).some((c) => {
    const r = relationOf(c.xchan_addr);
    return Boolean(r?.following_requested && !r.following);
  });
  useWhileWaiting(waiting, connections.reload);

  const [address, setAddress] = useState(suggested);
  const notify = useNotify();
  const action = useAction(async (addr: string) => {
    const user = await connect(addr);
    const who = user.name || addr;
    if (user.follow_request_sent) notify(isHere(session, addr) ? `${who} approves followers by hand: your request waits for their answer.` : `Your request waits for the server of ${who} to accept it.`, 'info');
    await connections.reload();
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    let addr = address.trim().replace(/^@/, '');
    if (!addr) return;
    if (!addr.includes('@')) addr = addressHere(session, addr);
    if (await action.run(addr)) setAddress('');
  };

  const list = connections.data?.list;
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Connections</h1>
          <p className="muted">The channels you are connected with. What each may do is up to you.</p>
        </div>
      </div>
      <form className="card inline-form" onSubmit={submit}>
        <label htmlFor="connect-address">Connect with</label>
        <input id="connect-address" value={address} onChange={(e) => setAddress(e.target.value)} placeholder={addressHere(session, 'nickname')} autoComplete="off" />
        <button type="submit" className="button button-primary" disabled={action.busy || !address.trim()}>
          {action.busy ? 'Connecting…' : 'Connect'}
        </button>
        {action.error && <ErrorNote error={`Could not connect: ${action.error}`} />}
      </form>
      {connections.status === 'loading' && !list && <Loading label="Loading your connections…" />}
      {connections.status === 'error' && <ErrorNote error={`Your connections could not be loaded: ${connections.error}`} onRetry={connections.reload} />}
      {list && list.length === 0 && <Empty title="No connections yet.">Type the address of another channel above (for example a second channel on this hub) to connect.</Empty>}
      {list && list.length > 0 && (
        <ul className="list card" aria-label="Your connections">
          {list.map((c) => {
            const relation = relationOf(c.xchan_addr);
            return (
              <li key={c.abook_id}>
                <Link to={`/connections/${encodeURIComponent(c.abook_id)}`} className="list-row">
                  <Avatar src={c.xchan_photo_m || c.xchan_photo_s} name={c.xchan_name ?? '?'} size={40} />
                  <span className="list-main">
                    <span className="person-name">{c.xchan_name}</span>
                    <span className="muted person-address">{c.xchan_addr}</span>
                    <span className="badges">
                      {isRequest(c) && <span className={`badge${isIgnored(c) ? ' badge-quiet' : ''}`}>{isIgnored(c) ? 'Ignored' : 'Wants to connect'}</span>}
                      {relation && <FollowBadges relation={relation} elsewhere={!isHere(session, c.xchan_addr ?? '')} />}
                      {String(c.abook_blocked) === '1' && <span className="badge badge-quiet">Blocked</span>}
                    </span>
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
