import { switchChannel } from '../../api/session.ts';
import { ErrorNote } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { Link, navigate } from '../../router.tsx';
import { useSession } from '../../session.tsx';

/** The channels of the account, for switching (the same as the channel menu, as a page). */
export function ChannelsPage() {
  const { session, refresh } = useSession();
  const action = useAction(async (nick: string) => {
    await switchChannel(nick, session.csrf ?? '');
    navigate('/');
    await refresh();
  });
  return (
    <div className="page">
      <h1>Your channels</h1>
      <p className="muted">All channels share your account and password. Switch between them here or in the menu under your name.</p>
      <p className="page-tools">
        <Link to="/channels/new" className="button button-primary">
          New channel
        </Link>
        <Link to="/channels/import" className="button button-quiet">
          Move a channel here
        </Link>
      </p>
      {action.error && <ErrorNote error={`Could not switch: ${action.error}`} />}
      <ul className="list card" aria-label="Channels">
        {(session.channels ?? []).map((c) => {
          const current = c.nick === session.channel?.nick;
          return (
            <li key={c.nick} className="list-row">
              <span className="list-main">
                <span className="person-name">{c.name}</span>
                <span className="muted person-address">{c.address}</span>
              </span>
              {current ? (
                <span className="badge badge-quiet">Current</span>
              ) : (
                <button type="button" className="button button-quiet button-small" disabled={action.busy} onClick={() => void action.run(c.nick)}>
                  Switch to {c.name}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
