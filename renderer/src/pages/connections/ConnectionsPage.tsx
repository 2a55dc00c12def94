import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { connect, isIgnored, isRequest } from '../../api/connections.ts';
import { relationshipsWith, type Relationship } from '../../api/people.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { FollowBadges } from '../../components/FollowBadges.tsx';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useConnectionSearch } from '../../hooks/useConnectionSearch.ts';
import { useWhileWaiting } from '../../hooks/useWhileWaiting.ts';
import { Link } from '../../router.tsx';
import { useNotify } from '../../notices.tsx';
import { useSession } from '../../session.tsx';
import { addressHere, isHere } from '../../addresses.ts';

/** The channel's connections, and connecting to another channel by its address (`connect` fills it in). */
export function ConnectionsPage({ connect: suggested = '' }: { connect?: string }) {
  const { session } = useSession();
  // Who they are (the channel's records), a page at a time and found by the hub when searched for;
  // and how each shown and the channel follow each other.
  const [query, setQuery] = useState('');
  const connections = useConnectionSearch(query, CONNECTIONS_PAGE);
  const relations = useRelations(connections.list, session.addressHost);
  const relationOf = (address = '') => relations.of(address);
  // A request the channel sent shows Following as soon as it is accepted.
  const waitingFor = (connections.list ?? []).flatMap((c) => {
    const r = relationOf(c.xchan_addr);
    return r?.following_requested && !r.following && c.xchan_addr ? [c.xchan_addr] : [];
  });
  const refreshWaiting = useCallback(() => relations.refresh(waitingFor), [relations, waitingFor.join(',')]); // eslint-disable-line react-hooks/exhaustive-deps
  useWhileWaiting(waitingFor.length > 0, refreshWaiting);

  const [address, setAddress] = useState(suggested);
  const notify = useNotify();
  const action = useAction(async (addr: string) => {
    const user = await connect(addr);
    const who = user.name || addr;
    if (user.follow_request_sent) notify(isHere(session, addr) ? `${who} approves followers by hand: your request waits for their answer.` : `Your request waits for the server of ${who} to accept it.`, 'info');
    await connections.reload();
    await relations.refresh([addr]);
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    let addr = address.trim().replace(/^@/, '');
    if (!addr) return;
    if (!addr.includes('@')) addr = addressHere(session, addr);
    if (await action.run(addr)) setAddress('');
  };

  const list = connections.list;
  const searching = connections.answered !== '';
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
      {(searching || query || (list && (list.length > 0 || connections.more))) && (
        <form className="card inline-form" role="search" onSubmit={(e) => e.preventDefault()}>
          <label htmlFor="connections-search">Search your connections</label>
          <input id="connections-search" type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Name or address" autoComplete="off" />
        </form>
      )}
      {connections.status === 'loading' && !list && <Loading label="Loading your connections…" />}
      {connections.status === 'error' && <ErrorNote error={`Your connections could not be loaded: ${connections.error}`} onRetry={connections.reload} />}
      {list && list.length === 0 && !searching && <Empty title="No connections yet.">Type the address of another channel above (for example a second channel on this hub) to connect.</Empty>}
      {list && list.length === 0 && searching && <Empty title={`None of your connections is named “${connections.answered}”.`} />}
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
      {list && connections.more && (
        <div className="load-more">
          <button type="button" className="button button-quiet" onClick={() => void connections.loadMore()} disabled={connections.status === 'loading'}>
            {connections.status === 'loading' ? 'Loading…' : 'Show more connections'}
          </button>
        </div>
      )}
    </div>
  );
}

/** Connections are shown this many at a time. */
const CONNECTIONS_PAGE = 50;

/** How the channel and the people shown follow each other, asked for those not asked about yet. */
function useRelations(list: { xchan_addr?: string }[] | undefined, addressHost: string) {
  const [known, setKnown] = useState(() => new Map<string, Relationship>());
  const asked = useRef(new Set<string>());
  const ask = useCallback(
    async (addresses: string[]) => {
      if (addresses.length === 0) return;
      for (const a of addresses) asked.current.add(a.toLowerCase());
      const found = await relationshipsWith(addresses, addressHost);
      setKnown((m) => new Map([...m, ...found]));
    },
    [addressHost],
  );
  useEffect(() => {
    const missing = (list ?? []).flatMap((c) => (c.xchan_addr && !asked.current.has(c.xchan_addr.toLowerCase()) ? [c.xchan_addr] : []));
    ask(missing).catch(() => missing.forEach((a) => asked.current.delete(a.toLowerCase())));
  }, [list, ask]);
  const of = useCallback((address: string) => known.get(address.toLowerCase()), [known]);
  const refresh = useCallback((addresses: string[]) => ask(addresses).catch(() => undefined), [ask]);
  return useMemo(() => ({ of, refresh }), [of, refresh]);
}
