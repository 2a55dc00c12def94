import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { describeError } from './api/http.ts';
import { isSeen, listNotifications, markSeen } from './api/notifications.ts';
import type { Notification, Status } from './api/types.ts';
import { usePolling } from './hooks/usePolling.ts';

/** How often the bell asks the hub for news while the window is visible. */
const POLL_MS = 10_000;

interface NotificationsState {
  items: Notification[] | undefined;
  unseen: number;
  error?: string;
  refresh: () => Promise<void>;
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

/** Unseen first, then newest first (the hub sorts this way too; kept stable after local changes). */
function ordered(items: Notification[]): Notification[] {
  return [...items].sort((a, b) => Number(isSeen(a)) - Number(isSeen(b)) || String(b.date).localeCompare(String(a.date)) || b.id - a.id);
}

export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<Notification[]>();
  const [error, setError] = useState<string>();
  const inFlight = useRef(false);

  const refresh = useCallback(async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    try {
      setItems(ordered(await listNotifications()));
      setError(undefined);
    } catch (err) {
      setError(describeError(err));
    } finally {
      inFlight.current = false;
    }
  }, []);

  usePolling(refresh, POLL_MS);

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
  return <NotificationsContext.Provider value={{ items, unseen, error, refresh, open, markAllSeen }}>{children}</NotificationsContext.Provider>;
}
