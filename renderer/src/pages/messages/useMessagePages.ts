import { useCallback, useState } from 'react';
import { describeError } from '../../api/http.ts';
import { MESSAGE_PAGE, type DirectMessage } from '../../api/messages.ts';
import { useLoad } from '../../hooks/useLoad.ts';

type PageLoader = (maxId?: number) => Promise<DirectMessage[] | undefined>;

/**
 * Messages a page at a time, newest first: the newest page (reloaded on demand) and the older
 * pages asked for with `loadOlder`, kept across reloads.
 */
export function useMessagePages(load: PageLoader, deps: unknown[]) {
  const newest = useLoad(() => load(), deps);
  const [older, setOlder] = useState<DirectMessage[]>([]);
  const [olderDone, setOlderDone] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<string>();
  const [removed, setRemoved] = useState<ReadonlySet<number>>(new Set());

  const first = newest.data;
  const oldestShown = first?.length ? Math.min(...first.map((m) => m.id)) : undefined;
  const messages = first && [...first, ...older.filter((m) => oldestShown === undefined || m.id < oldestShown)].filter((m) => !removed.has(m.id));
  const lastPage = older.length ? olderDone : (first?.length ?? 0) < MESSAGE_PAGE;

  const loadOlder = useCallback(async () => {
    const all = [...(first ?? []), ...older];
    if (!all.length) return;
    setLoadingOlder(true);
    setOlderError(undefined);
    try {
      const page = (await load(Math.min(...all.map((m) => m.id)) - 1)) ?? [];
      setOlder((o) => [...o, ...page]);
      setOlderDone(page.length < MESSAGE_PAGE);
    } catch (err) {
      setOlderError(describeError(err));
    } finally {
      setLoadingOlder(false);
    }
  }, [first, older, load]);

  const remove = useCallback((id: number) => setRemoved((r) => new Set([...r, id])), []);

  return { ...newest, messages, hasOlder: !lastPage, loadOlder, loadingOlder, olderError, remove };
}
