import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { unreadMessages } from './api/messages.ts';
import { usePolling } from './hooks/usePolling.ts';
import { useLive, useLiveEvents } from './live.tsx';

/** How often the unread count is asked for while the window is visible and the live stream is closed. */
const POLL_MS = 15_000;

interface UnreadState {
  unread: number;
  refresh: () => Promise<void>;
}

const UnreadContext = createContext<UnreadState>({ unread: 0, refresh: async () => undefined });

export const useUnreadMessages = () => useContext(UnreadContext);

/** The number of received direct messages not read yet, kept fresh for the top bar. */
export function UnreadMessagesProvider({ children }: { children: ReactNode }) {
  const [unread, setUnread] = useState(0);
  const inFlight = useRef(false);

  const refresh = useCallback(async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    try {
      setUnread((await unreadMessages()).length);
    } catch {
      // The count is a hint; the messages page says what went wrong.
    } finally {
      inFlight.current = false;
    }
  }, []);

  // While the hub streams, a direct message or a notification says when to ask.
  const live = useLive();
  usePolling(refresh, live.connected ? null : POLL_MS);
  useLiveEvents((e) => {
    if (e.event === 'notification' || (e.event === 'update' && e.status.visibility === 'direct')) void refresh();
  });

  return <UnreadContext.Provider value={{ unread, refresh }}>{children}</UnreadContext.Provider>;
}
