import { useEffect } from 'react';

/**
 * Runs `refresh` now, every `ms` while the window is visible (never when `ms` is null: something
 * else says when to), and whenever the window comes back into view or focus.
 */
export function usePolling(refresh: () => Promise<void>, ms: number | null): void {
  useEffect(() => {
    void refresh();
    const timer =
      ms === null
        ? undefined
        : setInterval(() => {
            if (document.visibilityState === 'visible') void refresh();
          }, ms);
    const onFocus = () => void refresh();
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onFocus);
    return () => {
      clearInterval(timer);
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onFocus);
    };
  }, [refresh, ms]);
}
