import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { describeError } from './api/http.ts';
import { isSeen, listNotifications, markSeen, NOTIFICATIONS_PAGE } from './api/notifications.ts';
import type { Notification, Status } from './api/types.ts';
import { usePolling } from './hooks/usePolling.ts';
import { useLive, useLiveEvents } from './live.tsx';

/** How often the bell asks the hub for news while the window is visible and the live stream is closed. */
const POLL_MS = 10_000;

interface NotificationsState {
  items: Notification[] | undefined;
  unseen: number;
  error?: string;
  refresh: () => Promise<void>;
  /** Whether older notifications than those loaded may exist. */
  hasOlder: boolean;
  /** Loads the next page of older notifications. */
  loadOlder: () => Promise<void>;
  /** Marks `n` seen (with `alsoSeen`, about the same thread: the hub marks those with it) and answers its post. */
  open: (n: Notification, alsoSeen?: Notification[]) => Promise<Status | undefined>;
  markAllSeen: () => Promise<void>;
}

const NotificationsContext = createContext<NotificationsState | undefined>(undefined);

export function useNotifications(): NotificationsState {
  const value = useContext(NotificationsContext);
  if (!value) throw new Error('useNotifications outside NotificationsProvider');
  return value;
}

/** Unseen first, then newest first (kept stable after local changes and as older pages come). */
function ordered(items: Notification[]): Notification[] {
  return [...items].sort((a, b) => Number(isSeen(a)) - Number(isSeen(b)) || String(b.date).localeCompare(String(a.date)) || b.id - a.id);
}

/**
 * The latest page joined with the older pages already loaded: those below the page's oldest stay
 * (a short page is the whole list).
 */
function withLatest(latest: Notification[], loaded: Notification[] | undefined): Notification[] {
  if (!loaded || latest.length < NOTIFICATIONS_PAGE) return latest;
  const oldest = Math.min(...latest.map((n) => n.id));
  return [...latest, ...loaded.filter((n) => n.id < oldest)];
}

export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<Notification[]>();
  const [error, setError] = useState<string>();
  // Whether the oldest page loaded was full: older notifications may follow.
  const [hasOlder, setHasOlder] = useState(false);
  const inFlight = useRef(false);

  const refresh = useCallback(async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    try {
      const latest = await listNotifications();
      setItems((loaded) => {
        const all = withLatest(latest, loaded);
        if (all.length === latest.length) setHasOlder(latest.length === NOTIFICATIONS_PAGE);
        return ordered(all);
      });
      setError(undefined);
    } catch (err) {
      setError(describeError(err));
    } finally {
      inFlight.current = false;
    }
  }, []);

  // While the hub streams, a notification it sends says when to ask.
  const live = useLive();
  usePolling(refresh, live.connected ? null : POLL_MS);
  useLiveEvents((e) => {
    if (e.event === 'notification') void refresh();
  });

  const loadOlder = useCallback(async () => {
    if (!items?.length) return;
    const page = await listNotifications(Math.min(...items.map((n) => n.id)) - 1);
    setItems((loaded) => ordered([...(loaded ?? []), ...page.filter((n) => !loaded?.some((m) => m.id === n.id))]));
    setHasOlder(page.length === NOTIFICATIONS_PAGE);
  }, [items]);

  const setSeen = (ids: number[]) => setItems((all) => all && ordered(all.map((n) => (ids.includes(n.id) ? { ...n, seen: true } : n))));

  const open = useCallback(async (n: Notification, alsoSeen: Notification[] = []) => {
    const status = isSeen(n) ? undefined : await markSeen(n.id);
    setSeen([n.id, ...alsoSeen.map((m) => m.id)]);
    return status;
  }, []);

  const markAllSeen = useCallback(async () => {
    const unseen = (items ?? []).filter((n) => !isSeen(n));
    const failures: string[] = [];
    for (const n of unseen) {
      try {
        await markSeen(n.id);
        setSeen([n.id]);
      } catch (err) {
        failures.push(describeError(err));
      }
    }
    if (failures.length) throw new Error(`${failures.length} notification(s) could not be marked seen: ${failures[0]}`);
  }, [items]);

  const unseen = (items ?? []).filter((n) => !isSeen(n)).length;
  return <NotificationsContext.Provider value={{ items, unseen, error, refresh, hasOlder, loadOlder, open, markAllSeen }}>{children}</NotificationsContext.Provider>;
}
