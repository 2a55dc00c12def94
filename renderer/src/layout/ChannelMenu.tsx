import { useRef, useState } from 'react';
import { describeError } from '../api/http.ts';
import { logout, switchChannel } from '../api/session.ts';
import { Avatar } from '../components/Avatar.tsx';
import { useNotify } from '../notices.tsx';
import { navigate } from '../router.tsx';
import { useSession } from '../session.tsx';

/** Who is logged in, the other channels of the account, and logging out. */
export function ChannelMenu({ photo }: { photo?: string }) {
  const { session, refresh } = useSession();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const details = useRef<HTMLDetailsElement>(null);
  const channel = session.channel!;
  const others = (session.channels ?? []).filter((c) => c.nick !== channel.nick);

  const run = async (what: () => Promise<unknown>, after?: () => void) => {
    setBusy(true);
    try {
      await what();
      if (details.current) details.current.open = false;
      after?.();
      await refresh();
    } catch (err) {
      notify(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <details className="channel-menu" ref={details}>
      <summary aria-label={`Channel ${channel.name}, open menu`}>
        <Avatar src={photo} name={channel.name} size={32} />
        <span className="channel-menu-name">{channel.name}</span>
      </summary>
      <div className="menu" role="menu">
        <div className="menu-heading">
          <strong>{channel.name}</strong>
          <span className="muted">
            {channel.nick}@{new URL(session.baseUrl).hostname}
          </span>
        </div>
        {others.length > 0 && <div className="menu-label">Switch to</div>}
        {others.map((c) => (
          <button key={c.nick} type="button" role="menuitem" className="menu-item" disabled={busy} onClick={() => run(() => switchChannel(c.nick, session.csrf ?? ''), () => navigate('/'))}>
            {c.name} <span className="muted">({c.nick})</span>
          </button>
        ))}
        <button type="button" role="menuitem" className="menu-item" disabled={busy} onClick={() => run(logout, () => navigate('/'))}>
          Log out
        </button>
      </div>
    </details>
  );
}
