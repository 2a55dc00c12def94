import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { describeError } from './api/http.ts';
import { verifyCredentials } from './api/profile.ts';
import type { User } from './api/types.ts';

/** The logged-in channel as the compat API describes it (name, about, photo URLs). */
interface MeState {
  me?: User;
  error?: string;
  refresh: () => Promise<void>;
  replace: (me: User) => void;
}

const MeContext = createContext<MeState>({ refresh: async () => {}, replace: () => {} });

export const useMe = () => useContext(MeContext);

export function MeProvider({ children }: { children: ReactNode }) {
  const [me, setMe] = useState<User>();
  const [error, setError] = useState<string>();
  const refresh = useCallback(async () => {
    try {
      setMe(await verifyCredentials());
      setError(undefined);
    } catch (err) {
      setError(describeError(err));
    }
  }, []);
  useEffect(() => void refresh(), [refresh]);
  return <MeContext.Provider value={{ me, error, refresh, replace: setMe }}>{children}</MeContext.Provider>;
}
