import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError } from '../api/http.ts';

export type Load<T> =
  | { status: 'loading'; data?: T; error?: undefined }
  | { status: 'error'; data?: T; error: string }
  | { status: 'ready'; data: T; error?: undefined };

/** Runs an async loader when `deps` change; keeps the last data while reloading. */
export function useLoad<T>(loader: () => Promise<T>, deps: unknown[]): Load<T> & { reload: () => Promise<void>; setData: (d: T) => void } {
  const [state, setState] = useState<Load<T>>({ status: 'loading' });
  const generation = useRef(0);
  const loaderRef = useRef(loader);
  loaderRef.current = loader;

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setState((s) => ({ status: 'loading', data: s.data }));
    try {
      const data = await loaderRef.current();
      if (mine === generation.current) setState({ status: 'ready', data });
    } catch (err) {
      if (mine === generation.current) setState((s) => ({ status: 'error', data: s.data, error: describeError(err) }));
    }
  }, []);

  useEffect(() => {
    void reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);

  const setData = useCallback((data: T) => setState({ status: 'ready', data }), []);
  return { ...state, reload, setData };
}
