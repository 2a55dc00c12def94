import { useCallback, useEffect, useRef, type RefObject } from 'react';

/**
 * A form that disables its controls while it sends drops the keyboard focus to the page: the next
 * Tab starts from the top and Space scrolls. Call the returned `keep()` as the sending starts; once
 * `busy` is over the focus goes back to the control that had it, or to `fallback` when that one
 * cannot take it (still disabled, or gone).
 */
export function useKeepFocus(busy: boolean, fallback?: RefObject<HTMLElement | null>): () => void {
  const kept = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (busy || !kept.current) return;
    const el = kept.current;
    kept.current = null;
    // The person moved on meanwhile (clicked or tabbed elsewhere): leave the focus where they put it.
    if (document.activeElement && document.activeElement !== document.body) return;
    el.focus();
    if (document.activeElement !== el) fallback?.current?.focus();
  }, [busy, fallback]);
  return useCallback(() => {
    const el = document.activeElement;
    kept.current = el instanceof HTMLElement && el !== document.body ? el : null;
  }, []);
}
