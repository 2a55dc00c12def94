import { useEffect } from 'react';

/** While a follow waits for an answer from elsewhere, how often to look whether it came. */
const WAITING_POLL_MS = 2000;

/** Runs `reload` every few seconds while `waiting` (a follow request awaits their answer or their server's). */
export function useWhileWaiting(waiting: boolean, reload: () => Promise<void>): void {
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void reload();
    }, WAITING_POLL_MS);
    return () => clearInterval(timer);
  }, [waiting, reload]);
}
