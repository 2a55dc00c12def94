import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { unreadMessages } from './api/messages.ts';
import { usePolling } from './hooks/usePolling.ts';

/** How often the unread count is asked for while the window is visible. */
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

  usePolling(refresh, POLL_MS);

  return <UnreadContext.Provider value={{ unread, refresh }}>{children}</UnreadContext.Provider>;
}
