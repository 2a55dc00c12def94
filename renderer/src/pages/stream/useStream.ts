import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError } from '../../api/http.ts';
import { filteredThreadMids, type StreamFilter } from '../../api/network.ts';
import { PAGE_SIZE, homeTimeline, statusByMid } from '../../api/statuses.ts';
import type { Status } from '../../api/types.ts';
import { loadThread } from './loadThread.ts';
import { entriesOf, isComment, mergeShares, threadKey, type Thread } from './threads.ts';

interface StreamState {
  threads: Thread[];
  loading: boolean;
  error?: string;
  ended: boolean;
}

async function withComments(top: Status): Promise<Thread> {
  try {
    return await loadThread(top.id, top);
  } catch (err) {
    return { top, comments: [], commentsError: describeError(err) };
  }
}

/** One page of thread tops through the native network/stream's filters (page numbers, not ids). */
async function filteredPage(filter: StreamFilter, page: number): Promise<Status[]> {
  const mids = await filteredThreadMids(filter, page, PAGE_SIZE);
  const tops = await Promise.all(mids.map((mid) => statusByMid(mid)));
  return tops.filter((s): s is Status => s !== undefined);
}

/**
 * Another list of posts shown as threads (a channel's posts, a tag, search results): `load` gives a
 * page, newest first, up to `maxId` (inclusive). `key` names the list: another key starts afresh.
 */
export interface Timeline {
  key: string;
  load: (maxId: number | undefined, count: number) => Promise<Status[]>;
}

/**
 * The threads of a page, each once, with their comments: a share and the post it shares are one
 * thread (shown with who shared it); a comment brings its whole thread.
 */
async function threadsOf(page: Status[]): Promise<Thread[]> {
  return Promise.all(
    entriesOf(page).map(async (entry): Promise<Thread> => {
      if (entry.top) return { ...(await withComments(entry.top)), shares: entry.shares };
      const first = page.find((s) => threadKey(s) === entry.key)!;
      try {
        return { ...(await loadThread(entry.key)), shares: entry.shares };
      } catch (err) {
        return { top: first.retweeted_status ?? first, comments: [], commentsError: describeError(err), shares: entry.shares };
      }
    }),
  );
}

/** The threads shown so far and those of the next page: a thread already shown stays where it is, with the shares of both. */
function appendThreads(shown: Thread[], next: Thread[]): Thread[] {
  const byTop = new Map(shown.map((t, i) => [t.top.id, i]));
  const out = [...shown];
  for (const t of next) {
    const at = byTop.get(t.top.id);
    if (at === undefined) {
      byTop.set(t.top.id, out.length);
      out.push(t);
    } else if (t.shares?.length) {
      out[at] = { ...out[at]!, shares: mergeShares(out[at]!.shares, t.shares) };
    }
  }
  return out;
}

/**
 * Threads that came anew (new posts, or new shares of posts shown below) go on top, in the order
 * given; the rest stay as they are.
 */
function prependThreads(shown: Thread[], fresh: Thread[]): Thread[] {
  const old = new Map(shown.map((t) => [t.top.id, t]));
  const top = fresh.map((t) => ({ ...t, shares: mergeShares(old.get(t.top.id)?.shares, t.shares) }));
  const moved = new Set(top.map((t) => t.top.id));
  return [...top, ...shown.filter((t) => !moved.has(t.top.id))];
}

/** How many of the newest posts "show new posts" reads; with more waiting, the stream starts afresh. */
const NEWER_PAGE = 40;

/**
 * The network stream as threads, loaded a page at a time (max_id paging, newest first); with a
 * filter, only the threads of one group or one connection.
 */
export function useStream(filter?: StreamFilter, timeline?: Timeline) {
  const [state, setState] = useState<StreamState>({ threads: [], loading: true, ended: false });
  const nextMaxId = useRef<number | undefined>(undefined);
  const nextPage = useRef(1);
  const filterRef = useRef(filter);
  filterRef.current = filter;
  const timelineRef = useRef(timeline);
  timelineRef.current = timeline;
  const filterKey = (filter ? JSON.stringify(filter) : '') + (timeline?.key ?? '');
  const busy = useRef(false);
  const generation = useRef(0);

  const loadPage = useCallback(async (reset: boolean) => {
    if (busy.current && !reset) return;
    busy.current = true;
    const mine = reset ? ++generation.current : generation.current;
    if (reset) {
      nextMaxId.current = undefined;
      nextPage.current = 1;
    }
    setState((s) => ({ ...s, loading: true, error: undefined, ...(reset ? { ended: false } : {}) }));
    try {
      const active = filterRef.current;
      const other = timelineRef.current;
      const page = active ? await filteredPage(active, nextPage.current) : other ? await other.load(nextMaxId.current, PAGE_SIZE) : await homeTimeline(nextMaxId.current, PAGE_SIZE);
      if (mine !== generation.current) return;
      nextPage.current += 1;
      // The stream lists posts only (the hub's filtered stream may hold comments); other lists, comments too.
      const threads = await threadsOf(other ? page : page.filter((s) => !isComment(s)));
      if (mine !== generation.current) return;
      if (page.length) nextMaxId.current = Math.min(...page.map((s) => s.id)) - 1;
      setState((s) => {
        const ended = active ? page.length < PAGE_SIZE : page.length < PAGE_SIZE || nextMaxId.current! < 1;
        return { threads: appendThreads(reset ? [] : s.threads, threads), loading: false, ended };
      });
    } catch (err) {
      if (mine === generation.current) setState((s) => ({ ...s, loading: false, error: describeError(err) }));
    } finally {
      if (mine === generation.current) busy.current = false;
    }
  }, []);

  useEffect(() => {
    // Another filter: the threads shown so far are not what was asked for.
    setState({ threads: [], loading: true, ended: false });
    void loadPage(true);
  }, [loadPage, filterKey]);

  const threadsNow = useRef(state.threads);
  threadsNow.current = state.threads;

  /** Loads the thread holding post or comment `id` again, if it is shown (its counts, comments and text changed). */
  const refreshThreadOf = useCallback(async (id: number) => {
    const shown = threadsNow.current.find((t) => t.top.id === id || t.comments.some((c) => c.id === id));
    if (!shown) return;
    let fresh: Thread;
    try {
      fresh = await loadThread(shown.top.id);
    } catch {
      return; // Gone or out of reach now: the next load of the list settles it.
    }
    setState((s) => ({ ...s, threads: s.threads.map((t) => (t.top.id === fresh.top.id ? { ...fresh, shares: t.shares } : t)) }));
  }, []);

  /** A post or share deleted on the hub: its thread goes, or its comment or share does. */
  const forget = useCallback(
    (id: number) => {
      const shown = threadsNow.current.find((t) => t.top.id === id || t.comments.some((c) => c.id === id) || t.shares?.some((x) => x.id === id));
      if (!shown) return;
      if (shown.top.id === id) setState((s) => ({ ...s, threads: s.threads.filter((t) => t.top.id !== id) }));
      else if (shown.shares?.some((x) => x.id === id)) setState((s) => ({ ...s, threads: s.threads.map((t) => (t === shown ? { ...t, shares: t.shares!.filter((x) => x.id !== id) } : t)) }));
      else void refreshThreadOf(shown.top.id);
    },
    [refreshThreadOf],
  );

  /** Brings the stream's new posts and shares `ids` (newest first, as the hub streamed them) to the top. */
  const showNewer = useCallback(
    async (ids: number[]) => {
      if (ids.length > NEWER_PAGE) return loadPage(true);
      const wanted = new Set(ids);
      const page = (await homeTimeline(undefined, NEWER_PAGE)).filter((s) => wanted.has(s.id) && !isComment(s));
      const threads = await threadsOf(page);
      setState((s) => ({ ...s, threads: prependThreads(s.threads, threads) }));
    },
    [loadPage],
  );

  const replaceThread = useCallback((thread: Thread) => {
    setState((s) => ({ ...s, threads: s.threads.map((t) => (t.top.id === thread.top.id ? thread : t)) }));
  }, []);

  const removeThread = useCallback((topId: number) => {
    setState((s) => ({ ...s, threads: s.threads.filter((t) => t.top.id !== topId) }));
  }, []);

  return {
    ...state,
    loadMore: () => loadPage(false),
    reload: () => loadPage(true),
    replaceThread,
    removeThread,
    refreshThreadOf,
    forget,
    showNewer,
  };
}


