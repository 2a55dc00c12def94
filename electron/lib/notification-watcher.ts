import type { EventEmitter } from 'node:events';
import type { Db } from '../../server/db/open.js';
import type { Logger } from '../../server/hub.js';
import { countAllUnseenNotifications, latestNotifyId, unseenNotificationsAfter, type WatchedNotification } from '../../server/store/notify-watch.js';
import { noticeFor, summaryNotice, type DesktopNotice } from './notice.js';

export interface NotificationWatcherOptions {
  db: Db;
  /** hub.events: 'notification' (channelId, notifyId) makes the check immediate. */
  events?: EventEmitter;
  /** Shows one native notification. */
  notify(notice: DesktopNotice): void;
  /** Called with the number of unseen notifications whenever it changes (and once at start). */
  onUnseenCount?(count: number): void;
  /** Fallback polling interval; catches notifications written without an event and seen-marks made in the UI. */
  pollMs?: number;
  /** More new notifications than this at once are shown as one summary. */
  maxPerCheck?: number;
  log?: Logger;
}

const BATCH = 100;

/**
 * Turns new unseen rows of the notify table into native notifications, each exactly once:
 * only rows with an id above the last one handled are considered, and better-sqlite3 is
 * synchronous, so an event and a poll can never handle the same row twice.
 */
export class NotificationWatcher {
  private lastId = 0;
  private unseen = -1;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private readonly onEvent = () => setImmediate(() => this.check());

  constructor(private readonly opts: NotificationWatcherOptions) {}

  /** Starts after the newest existing notification: what was there before is not news. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.lastId = latestNotifyId(this.opts.db);
    this.opts.events?.on('notification', this.onEvent);
    this.timer = setInterval(() => this.check(), this.opts.pollMs ?? 5000);
    this.timer.unref();
    this.check();
  }

  stop(): void {
    this.running = false;
    this.opts.events?.off('notification', this.onEvent);
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Handles whatever is new since the last check. Safe to call at any time. */
  check(): void {
    if (!this.running || !this.opts.db.open) return;
    try {
      const max = this.opts.maxPerCheck ?? 3;
      const fresh: WatchedNotification[] = [];
      for (let rows = unseenNotificationsAfter(this.opts.db, this.lastId, BATCH); rows.length; rows = unseenNotificationsAfter(this.opts.db, this.lastId, BATCH)) {
        fresh.push(...rows);
        this.lastId = rows[rows.length - 1]!.id;
      }
      for (const notice of fresh.length > max ? [summaryNotice(fresh)] : fresh.map(noticeFor)) {
        try {
          this.opts.notify(notice);
        } catch (err) {
          this.opts.log?.error('could not show a notification:', err);
        }
      }
      const unseen = countAllUnseenNotifications(this.opts.db);
      if (unseen !== this.unseen) {
        this.unseen = unseen;
        this.opts.onUnseenCount?.(unseen);
      }
    } catch (err) {
      this.opts.log?.error('notification check failed:', err);
    }
  }
}
