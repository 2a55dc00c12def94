import { bodyToText } from '../../server/content/render.js';
import type { WatchedNotification } from '../../server/store/notify-watch.js';

/** A native desktop notification to show, and where clicking it leads. */
export interface DesktopNotice {
  /** Notification id (the newest one for a summary). */
  id: number;
  /** Channel the notification belongs to: the window is logged in as it when the notice is clicked. */
  channelId: number;
  title: string;
  body: string;
  /** Path in the UI to open on click. */
  path: string;
}

const MAX_BODY = 200;

/** The UI path of a notification's link when it names one connection or message, else undefined. */
function linkedPath(link: string): string | undefined {
  try {
    const path = new URL(link).pathname;
    return /^\/(connections\/\d+|mail\/\d+)$/.test(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The UI page for a notification: the item it is about, the connection for an introduction, the
 * conversation for a message, else the list.
 */
export function noticePath(n: Pick<WatchedNotification, 'iid' | 'otype' | 'link'>): string {
  if (n.otype === 'intro') return linkedPath(n.link) ?? '/connections';
  if (n.otype === 'mail') return linkedPath(n.link) ?? '/messages';
  if (n.iid > 0 && n.otype === 'item') return `/item/${n.iid}`;
  return '/notifications';
}

export function noticeFor(n: WatchedNotification): DesktopNotice {
  let body = bodyToText(n.msg).replace(/\s+/g, ' ').trim();
  if (body.length > MAX_BODY) body = body.slice(0, MAX_BODY - 1) + '…';
  return { id: n.id, channelId: n.uid, title: n.xname || 'Hearth', body: body || 'New notification', path: noticePath(n) };
}

/** One notice standing for many, so a burst does not flood the desktop. */
export function summaryNotice(batch: WatchedNotification[]): DesktopNotice {
  const last = batch[batch.length - 1]!;
  return { id: last.id, channelId: last.uid, title: 'Hearth', body: `${batch.length} new notifications`, path: '/notifications' };
}
