import { COMPAT, get, post } from './http.ts';
import type { Notification, Status } from './types.ts';

/** Notifications are read this many at a time, newest first. */
export const NOTIFICATIONS_PAGE = 40;

/** A page of notifications, newest first: the latest, or those at or below `maxId`. */
export async function listNotifications(maxId?: number): Promise<Notification[]> {
  const res = await get<Notification[] | false | undefined>(`${COMPAT}ext/notifications`, { count: NOTIFICATIONS_PAGE, ...(maxId === undefined ? {} : { max_id: maxId }) });
  return Array.isArray(res) ? res : [];
}

export function isSeen(n: Notification): boolean {
  return n.seen === true || n.seen === 1 || n.seen === '1' || n.seen === 'true';
}

/** Marks one notification seen; answers the linked post when there is one. */
export async function markSeen(id: number): Promise<Status | undefined> {
  const res = await post<Status[] | Status | string>(`${COMPAT}ext/notifications/seen`, { id });
  if (Array.isArray(res)) return res[0];
  return res && typeof res === 'object' ? res : undefined;
}
