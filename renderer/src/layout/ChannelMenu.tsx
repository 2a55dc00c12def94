import { useEffect, useRef, useState } from 'react';
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
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const channel = session.channel!;
  const others = (session.channels ?? []).filter((c) => c.nick !== channel.nick);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const run = async (what: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await what();
      setOpen(false);
      // Who is logged in first: the page navigated to must not load as the channel just left.
      await refresh();
      navigate('/');
    } catch (err) {
      notify(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  const go = (to: string) => {
    setOpen(false);
    navigate(to);
  };

  return (
    <div className="channel-menu" ref={root}>
      <button type="button" className="channel-menu-button" aria-haspopup="menu" aria-expanded={open} aria-label={`Channel ${channel.name}: switch channel or log out`} onClick={() => setOpen(!open)}>
        <Avatar src={photo} name={channel.name} size={32} />
        <span className="channel-menu-name">{channel.name}</span>
      </button>
      {open && (
        <div className="menu" role="menu">
          <div className="menu-heading">
            <strong>{channel.name}</strong>
            <span className="muted">{channel.address}</span>
          </div>
          {others.length > 0 && <div className="menu-label">Switch to</div>}
          {others.map((c) => (
            <button key={c.nick} type="button" role="menuitem" className="menu-item" disabled={busy} onClick={() => void run(() => switchChannel(c.nick, session.csrf ?? ''))}>
              {c.name} <span className="muted">({c.nick})</span>
            </button>
          ))}
          <div className="menu-separator" role="separator" />
          <button type="button" role="menuitem" className="menu-item" onClick={() => go('/channels/new')}>
            New channel…
          </button>
          <button type="button" role="menuitem" className="menu-item" onClick={() => go('/channels')}>
            All channels
          </button>
          <button type="button" role="menuitem" className="menu-item" disabled={busy} onClick={() => void run(logout)}>
            Log out
          </button>
        </div>
      )}
    </div>
  );
}
