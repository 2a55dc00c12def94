import { useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { describeError } from '../api/http.ts';
import { logout, switchChannel } from '../api/session.ts';
import { Avatar } from '../components/Avatar.tsx';
import { useNotify } from '../notices.tsx';
import { navigate } from '../router.tsx';
import { useSession } from '../session.tsx';

/**
 * Who is logged in, the other channels of the account, and logging out. A menu button as people
 * know them: opening it puts the focus on the first item (ArrowUp on the button: the last), the
 * arrow keys, Home and End move through the items, Escape closes it and gives the focus back to
 * the button, Tab closes it and goes on.
 */
export function ChannelMenu({ photo }: { photo?: string }) {
  const { session, refresh } = useSession();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [focusLast, setFocusLast] = useState(false);
  const [busy, setBusy] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const channel = session.channel!;
  const menuId = useId();
  const others = (session.channels ?? []).filter((c) => c.nick !== channel.nick);

  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  useEffect(() => {
    if (!open) return;
    const list = items();
    (focusLast ? list[list.length - 1] : list[0])?.focus();
    const onDown = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
    // The focus goes in once, as the menu opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  const openWith = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    setFocusLast(e.key === 'ArrowUp');
    setOpen(true);
  };

  const onMenuKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const to = { ArrowDown: at + 1, ArrowUp: (at < 0 ? list.length : at) - 1, Home: 0, End: list.length - 1 }[e.key];
    if (to !== undefined) {
      e.preventDefault();
      list[(to + list.length) % list.length]?.focus();
    } else if (e.key === 'Escape' || (e.key === 'Tab' && e.shiftKey)) {
      // Shift+Tab would go back to the button anyway.
      e.preventDefault();
      close();
    }
  };

  // Tab (or a click) took the focus out of the menu: it closes, and the focus stays where it went.
  const onMenuBlur = (e: FocusEvent<HTMLDivElement>) => {
    const to = e.relatedTarget as Node | null;
    if (to && !menu.current?.contains(to) && to !== button.current) setOpen(false);
  };

  const run = async (what: () => Promise<unknown>) => {
    if (busy) return;
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
    close();
    navigate(to);
  };

  return (
    <div className="channel-menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="channel-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`Channel ${channel.name}: switch channel or log out`}
        onClick={() => {
          setFocusLast(false);
          setOpen(!open);
        }}
        onKeyDown={openWith}
      >
        <Avatar src={photo} name={channel.name} size={32} />
        <span className="channel-menu-name">{channel.name}</span>
      </button>
      {open && (
        // tabIndex -1: a click on the menu's heading keeps the focus in the menu (and the menu open).
        <div id={menuId} ref={menu} className="menu" role="menu" aria-label={`Channel ${channel.name}`} tabIndex={-1} onKeyDown={onMenuKey} onBlur={onMenuBlur}>
          <div className="menu-heading">
            <strong>{channel.name}</strong>
            <span className="muted">{channel.address}</span>
          </div>
          {others.length > 0 && <div className="menu-label">Switch to</div>}
          {others.map((c) => (
            <button key={c.nick} type="button" role="menuitem" tabIndex={-1} className="menu-item" aria-disabled={busy} onClick={() => void run(() => switchChannel(c.nick, session.csrf ?? ''))}>
              {c.name} <span className="muted">({c.nick})</span>
            </button>
          ))}
          <div className="menu-separator" role="separator" />
          <button type="button" role="menuitem" tabIndex={-1} className="menu-item" onClick={() => go('/channels/new')}>
            New channel…
          </button>
          <button type="button" role="menuitem" tabIndex={-1} className="menu-item" onClick={() => go('/channels')}>
            All channels
          </button>
          <button type="button" role="menuitem" tabIndex={-1} className="menu-item" aria-disabled={busy} onClick={() => void run(logout)}>
            Log out
          </button>
        </div>
      )}
    </div>
  );
}
