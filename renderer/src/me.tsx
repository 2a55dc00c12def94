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
  /** After a new profile photo: reloads, and makes the browser fetch the photo again. */
  photoChanged: () => Promise<void>;
  /** A profile photo URL that changes whenever the photo did (the hub keeps the same address). */
  photo: (url: string | undefined) => string | undefined;
}

const MeContext = createContext<MeState>({ refresh: async () => {}, replace: () => {}, photoChanged: async () => {}, photo: (u) => u });

export const useMe = () => useContext(MeContext);

export function MeProvider({ children }: { children: ReactNode }) {
  const [me, setMe] = useState<User>();
  const [error, setError] = useState<string>();
  const [photoVersion, setPhotoVersion] = useState(0);
  const refresh = useCallback(async () => {
    try {
      setMe(await verifyCredentials());
      setError(undefined);
    } catch (err) {
      setError(describeError(err));
    }
  }, []);
  useEffect(() => void refresh(), [refresh]);
  const photoChanged = useCallback(async () => {
    setPhotoVersion(Date.now());
    await refresh();
  }, [refresh]);
  const photo = useCallback((url: string | undefined) => (url && photoVersion ? `${url}${url.includes('?') ? '&' : '?'}v=${photoVersion}` : url), [photoVersion]);
  return <MeContext.Provider value={{ me, error, refresh, replace: setMe, photoChanged, photo }}>{children}</MeContext.Provider>;
}
