import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { getSession } from './api/session.ts';
import { sessionLost } from './api/http.ts';

/** A Mastodon status as the stream sends it (the fields the UI reads). */
export interface LiveStatus {
  id: string;
  in_reply_to_id: string | null;
  visibility: string;
  account: { acct: string };
  reblog: LiveStatus | null;
}

/** What the hub streams to the owner's UI: its user stream (Mastodon streaming API) over a WebSocket. */
export type LiveEvent =
  | { event: 'update' | 'status.update'; status: LiveStatus }
  | { event: 'delete'; id: string }
  | { event: 'notification'; type: string; status?: LiveStatus };

type Listener = (e: LiveEvent) => void;

interface LiveState {
  /** The stream is open: what happens on the hub shows without asking. */
  connected: boolean;
  /** Calls `listener` with each event until the returned function is called. */
  subscribe(listener: Listener): () => void;
}

const LiveContext = createContext<LiveState>({ connected: false, subscribe: () => () => undefined });

export const useLive = () => useContext(LiveContext);

/** Calls `listener` (the latest one given) with each event of the hub's stream. */
export function useLiveEvents(listener: Listener): void {
  const { subscribe } = useLive();
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => subscribe((e) => latest.current(e)), [subscribe]);
}

function toEvent(data: string): LiveEvent | undefined {
  const { event, payload } = JSON.parse(data) as { event?: string; payload?: string };
  if (event === 'update' || event === 'status.update') return { event, status: JSON.parse(payload!) as LiveStatus };
  if (event === 'delete') return { event, id: String(payload) };
  if (event === 'notification') {
    const n = JSON.parse(payload!) as { type: string; status?: LiveStatus };
    return { event, type: n.type, status: n.status ?? undefined };
  }
  return undefined;
}

const MAX_RETRY_MS = 30_000;

/**
 * Keeps a WebSocket open to the hub's user stream (the session cookie opens it from the hub's own
 * page) for as long as the owner is logged in. When it closes, it is opened again after a pause
 * that grows, once the hub says the session still holds; an ended session shows the login form.
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const [connected, setConnected] = useState(false);
  const listeners = useRef(new Set<Listener>());

  useEffect(() => {
    let ws: WebSocket | undefined;
    let stopped = false;
    let failures = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/v1/streaming?stream=user`;

    const open = () => {
      if (stopped) return;
      ws = new WebSocket(url);
      ws.onopen = () => {
        failures = 0;
        setConnected(true);
      };
      ws.onmessage = (m) => {
        let e: LiveEvent | undefined;
        try {
          e = toEvent(String(m.data));
        } catch {
          return;
        }
        if (e) for (const l of listeners.current) l(e);
      };
      ws.onclose = () => {
        setConnected(false);
        if (stopped) return;
        timer = setTimeout(reopen, Math.min(MAX_RETRY_MS, 1000 * 2 ** failures++));
      };
    };
    // Asked first, so that an ended session leads to the login form rather than to refused handshakes.
    const reopen = async () => {
      try {
        const session = await getSession();
        if (stopped) return;
        if (!session.authenticated) return sessionLost();
        open();
      } catch {
        if (!stopped) timer = setTimeout(reopen, Math.min(MAX_RETRY_MS, 1000 * 2 ** failures++));
      }
    };

    open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      ws?.close();
    };
  }, []);

  const subscribe = useCallback((listener: Listener) => {
    listeners.current.add(listener);
    return () => void listeners.current.delete(listener);
  }, []);

  return <LiveContext.Provider value={{ connected, subscribe }}>{children}</LiveContext.Provider>;
}
