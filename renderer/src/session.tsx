import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { setCsrfToken, whenSessionLost, describeError } from './api/http.ts';
import { getSession } from './api/session.ts';
import type { Session } from './api/types.ts';

interface SessionState {
  session: Session;
  /** Asks the hub again who is logged in (after login, logout, setup, channel switch). */
  refresh: () => Promise<void>;
}

const SessionContext = createContext<SessionState | undefined>(undefined);

export function useSession(): SessionState {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The logged-in channel; only for components under the authenticated shell. */
export function useChannel() {
  const { session } = useSession();
  if (!session.channel) throw new Error('no channel in session');
  return session.channel;
}

export function SessionProvider({ children, fallback }: { children: ReactNode; fallback: (error?: string, retry?: () => void) => ReactNode }) {
  const [session, setSession] = useState<Session>();
  const [error, setError] = useState<string>();

  const refresh = useCallback(async () => {
    try {
      const s = await getSession();
      setCsrfToken(s.csrf ?? '');
      setSession(s);
      setError(undefined);
    } catch (err) {
      setError(describeError(err));
    }
  }, []);

  useEffect(() => {
    void refresh();
    whenSessionLost(() => void refresh());
  }, [refresh]);

  if (!session) return <>{fallback(error, error ? () => void refresh() : undefined)}</>;
  return <SessionContext.Provider value={{ session, refresh }}>{children}</SessionContext.Provider>;
}
