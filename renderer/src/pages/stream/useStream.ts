import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError } from '../../api/http.ts';
import { filteredThreadMids, type StreamFilter } from '../../api/network.ts';
import { PAGE_SIZE, homeTimeline, statusByMid } from '../../api/statuses.ts';
import type { Status } from '../../api/types.ts';
import { loadThread } from './loadThread.ts';
import { isComment, threadId, type Thread } from './threads.ts';

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

/** The threads of a page that may hold comments too: each thread once, with its top. */
async function threadsOf(page: Status[]): Promise<Thread[]> {
  const seen = new Set<number>();
  const loads: Promise<Thread>[] = [];
  for (const s of page) {
    const id = threadId(s);
    if (seen.has(id)) continue;
    seen.add(id);
    loads.push(isComment(s) ? loadThread(id).catch((err) => ({ top: s, comments: [], commentsError: describeError(err) })) : withComments(s));
  }
  return Promise.all(loads);
}

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
      const threads = other ? await threadsOf(page) : await Promise.all(page.filter((s) => !isComment(s)).map(withComments));
      if (mine !== generation.current) return;
      if (page.length) nextMaxId.current = Math.min(...page.map((s) => s.id)) - 1;
      setState((s) => {
        const known = new Set(reset ? [] : s.threads.map((t) => t.top.id));
        const fresh = threads.filter((t) => !known.has(t.top.id));
        const ended = active ? page.length < PAGE_SIZE : page.length < PAGE_SIZE || nextMaxId.current! < 1;
        return { threads: reset ? fresh : [...s.threads, ...fresh], loading: false, ended };
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
  };
}


