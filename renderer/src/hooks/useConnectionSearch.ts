import { useCallback, useEffect, useRef, useState } from 'react';
import { connectionsPage } from '../api/connections.ts';
import { describeError } from '../api/http.ts';
import type { Connection } from '../api/types.ts';

/** How long the typing rests before the hub is asked. */
const TYPING_PAUSE_MS = 250;

export interface ConnectionSearch {
  /** The connections found so far (every page asked for), oldest first. */
  list?: Connection[];
  /** Whether the hub may have more after them. */
  more: boolean;
  status: 'loading' | 'ready' | 'error';
  error?: string;
  /** The query the list answers (the typed one, once the typing rests). */
  answered: string;
  loadMore: () => Promise<void>;
  /** Asks again for as many as are shown (after a change). */
  reload: () => Promise<void>;
}

/**
 * The channel's connections a page at a time, those whose name or address contains `query` when it
 * is given: the hub finds them, so the browser never holds more than the pages a person asked for.
 */
export function useConnectionSearch(query: string, pageSize: number, enabled = true): ConnectionSearch {
  const [settled, setSettled] = useState(query.trim());
  const [state, setState] = useState<{ list?: Connection[]; next: number; more: boolean; status: ConnectionSearch['status']; error?: string; answered: string }>({ next: 0, more: false, status: 'loading', answered: '' });
  const generation = useRef(0);
  const shown = useRef(state);
  shown.current = state;

  useEffect(() => {
    const q = query.trim();
    if (q === settled) return;
    const timer = setTimeout(() => setSettled(q), q ? TYPING_PAUSE_MS : 0);
    return () => clearTimeout(timer);
  }, [query, settled]);

  const ask = useCallback(
    async (start: number, records: number, append: boolean) => {
      const mine = ++generation.current;
      setState((s) => ({ ...s, status: 'loading' }));
      try {
        const page = await connectionsPage({ q: settled, start, records });
        if (mine !== generation.current) return;
        setState((s) => ({ list: append ? [...(s.list ?? []), ...page.list] : page.list, next: page.next, more: page.more, status: 'ready', answered: settled }));
      } catch (err) {
        if (mine === generation.current) setState((s) => ({ ...s, status: 'error', error: describeError(err) }));
      }
    },
    [settled],
  );

  useEffect(() => {
    if (enabled) void ask(0, pageSize, false);
  }, [ask, pageSize, enabled]);

  const loadMore = useCallback(() => ask(shown.current.next, pageSize, true), [ask, pageSize]);
  const reload = useCallback(() => ask(0, Math.max(pageSize, shown.current.next), false), [ask, pageSize]);
  return { ...state, loadMore, reload };
}
