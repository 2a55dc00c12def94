import { useCallback, useState } from 'react';
import { describeError } from '../api/http.ts';

/**
 * Wraps a user action: `busy` while it runs, `error` in words when it fails (cleared on the
 * next attempt). `run` resolves to true when the action succeeded.
 */
export function useAction<A extends unknown[]>(action: (...args: A) => Promise<unknown>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = useCallback(
    async (...args: A): Promise<boolean> => {
      setBusy(true);
      setError(undefined);
      try {
        await action(...args);
        return true;
      } catch (err) {
        setError(describeError(err));
        return false;
      } finally {
        setBusy(false);
      }
    },
    [action],
  );
  return { run, busy, error, setError };
}
