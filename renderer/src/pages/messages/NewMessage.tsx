import { useId, useState, type FormEvent } from 'react';
import { useConnectionSearch } from '../../hooks/useConnectionSearch.ts';
import { ErrorNote } from '../../components/Status.tsx';
import { navigate } from '../../router.tsx';

/**
 * How the microblog API names a connection (its screen_name): the nick of a channel of this hub, the
 * whole address of someone elsewhere (ActivityPub).
 */
const screenNameOf = (c: { xchan_addr?: string; xchan_network?: string }) => (c.xchan_network === 'activitypub' ? (c.xchan_addr ?? '') : (c.xchan_addr?.split('@')[0] ?? ''));

/** The choice of whom to write to holds this many connections at once. */
const CHOICES_PAGE = 100;

/** Picks a connection to write to, and opens the conversation with them. */
export function NewMessage() {
  // A page of connections to choose from; with more, the hub finds those named.
  const [find, setFind] = useState('');
  const connections = useConnectionSearch(find, CHOICES_PAGE);
  const [to, setTo] = useState('');
  const id = useId();
  const people = (connections.list ?? []).filter((c) => c.xchan_addr && String(c.abook_blocked ?? '0') !== '1').sort((a, b) => (a.xchan_name ?? '').localeCompare(b.xchan_name ?? ''));

  const start = (e: FormEvent) => {
    e.preventDefault();
    if (to) navigate(`/messages/${encodeURIComponent(to)}`);
  };

  return (
    <form className="card new-message" onSubmit={start} aria-label="New message">
      <label htmlFor={id}>Write to</label>
      <select id={id} value={to} onChange={(e) => setTo(e.target.value)} disabled={!people.length}>
        <option value="">{connections.status === 'loading' ? 'Loading your connections…' : people.length ? 'Choose a connection' : connections.answered ? `Nobody named “${connections.answered}”` : 'No connections yet'}</option>
        {people.map((c) => (
          <option key={c.abook_id} value={screenNameOf(c)}>
            {c.xchan_name} ({c.xchan_addr})
          </option>
        ))}
      </select>
      {(connections.more || find || connections.answered) && (
        <input type="search" aria-label="Find a connection by name" placeholder="Find by name…" value={find} onChange={(e) => setFind(e.target.value)} autoComplete="off" />
      )}
      <button type="submit" className="button" disabled={!to}>
        New message
      </button>
      {connections.status === 'error' && <ErrorNote error={`Your connections could not be loaded: ${connections.error}`} onRetry={connections.reload} />}
    </form>
  );
}
