import { AsyncLocalStorage } from 'node:async_hooks';
import type { MessageQueue, MessageQueueDepth, MessageQueueEnqueueOptions, MessageQueueListenOptions } from '@fedify/fedify';
import { stmt, type Db } from '../db/open.js';
import { writeTogether } from '../db/group-commit.js';
import { deliveryInbox, type DeliveryGuard } from './delivery-guard.js';

export interface QueueLimits {
  /** Messages handled at once, all lanes together. */
  workers: number;
  /** Messages of one lane (deliveries to one host) handled at once. */
  perLane: number;
  /**
   * Outgoing work (deliveries, fan-outs, the hub's jobs) in hand at once while the hub answers
   * requests: a post is answered first and delivered after, without slowing the next posts much.
   */
  whileBusy: number;
  /**
   * The share of the time outgoing work may take while the hub answers requests: after each
   * outgoing message the next one waits (1 − share) / share times as long as it took, a second at
   * most. A post's hundred deliveries cost far more than the post; under a stream of requests they
   * go on, slowly, rather than halve the rate at which the requests are answered.
   */
  busyShare: number;
}

export const DEFAULT_QUEUE_LIMITS: QueueLimits = { workers: 16, perLane: 4, whileBusy: 1, busyShare: 0.1 };
const MAX_BUSY_PAUSE_MS = 1000;

export interface QueueOptions {
  /** Whether the hub is answering requests now. */
  busy?: () => boolean;
  /** Checks each delivery's inbox just before it is sent, and every request it makes. */
  guard?: DeliveryGuard;
  /** Told of every message handled. */
  handled?: () => void;
}

interface QueuedRow {
  id: number;
  message: string;
  lane: string;
  ready_at: number;
}

interface NewRow {
  message: unknown;
  readyAt: number;
}

/** The hub's own jobs in the queue (not Fedify's): a handler per message type. */
export type JobHandler = (message: { type: string }) => Promise<void>;

/**
 * Fedify's message types whose handler's enqueues are its successors (as are the hub's own jobs'):
 * a delivery's retry, a fan-out's deliveries. They are written together with the removal of the
 * message that made them, so that a crash leaves either the message or its successors, never both
 * (both would deliver twice) and never neither. A received activity (type 'inbox') is not among
 * them: what its listener sends stands on its own (Fedify remembers what it has handled).
 */
const HAS_SUCCESSORS = new Set(['outbox', 'fanout']);

interface Handling {
  queue: SqliteMessageQueue;
  row: QueuedRow;
  successors: NewRow[];
  open: boolean;
}

const handling = new AsyncLocalStorage<Handling>();

/** Received activities: neither limited per lane nor held back while the hub is busy. */
const INBOX_LANE = 'inbox';

/**
 * Deliveries to one host share a lane (at most perLane at once); received activities have theirs;
 * the rest (fan-outs, the hub's jobs) share the lane ''.
 */
function laneOf(message: unknown): string {
  const m = message as { type?: string; inbox?: string };
  if (m?.type === 'outbox' && typeof m.inbox === 'string') {
    try {
      return 'host:' + new URL(m.inbox).host;
    } catch {
      return 'host:?';
    }
  }
  return m?.type === 'inbox' ? INBOX_LANE : '';
}

/**
 * Fedify's message queue in the hub's database. A message stays in its table until its handler has
 * finished, so what was queued survives a restart or kill -9 and is handled after it; Fedify itself
 * schedules retries (nativeRetrial is false) by enqueueing the next attempt with a delay. The hub's
 * own jobs (see `handle`) share the table, the workers and the durability. With a guard, a delivery
 * whose inbox may not be reached now is dropped (reported to onError) unsent.
 */
export class SqliteMessageQueue implements MessageQueue {
  readonly nativeRetrial = false;
  private readonly inFlight = new Set<number>();
  private readonly laneLoad = new Map<string, number>();
  private readonly jobs = new Map<string, JobHandler>();
  private wake: (() => void) | undefined;
  /** While the hub is busy, no outgoing message starts before this time (Date.now()). */
  private outgoingPausedUntil = 0;

  private readonly limits: QueueLimits;

  constructor(
    private readonly db: Db,
    limits: Partial<QueueLimits> = {},
    private readonly onError: (error: unknown) => void = () => {},
    private readonly o: QueueOptions = {},
  ) {
    this.limits = { ...DEFAULT_QUEUE_LIMITS, ...limits };
  }

  private busy(): boolean {
    return this.o.busy?.() ?? false;
  }

  /** Handles messages of `type` (the hub's own jobs) with `handler`; what it enqueues are its successors. */
  handle(type: string, handler: JobHandler): void {
    this.jobs.set(type, handler);
  }

  /**
   * Queues a message at once, synchronously: inside the caller's transaction, so that the message
   * is written if and only if what it is about is.
   */
  push(message: { type: string }): void {
    this.insert([{ message, readyAt: Date.now() }]);
    this.wake?.();
  }

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    await this.enqueueMany([message], options);
  }

  async enqueueMany(messages: readonly unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    const delay = options?.delay ? Math.max(0, options.delay.total({ unit: 'millisecond' })) : 0;
    const now = Date.now();
    const h = handling.getStore();
    if (h?.queue === this && h.open) {
      // Successors wait for the end of their handler. Without a delay they take its place in the
      // queue, ahead of what was queued after it: a post's deliveries go out before the next post's.
      const readyAt = delay ? now + delay : Math.min(now, h.row.ready_at);
      for (const message of messages) h.successors.push({ message, readyAt });
      return;
    }
    await writeTogether(this.db, () => this.insert(messages.map((message) => ({ message, readyAt: now + delay }))));
    this.wake?.();
  }

  private insert(rows: NewRow[]): void {
    const insert = stmt(this.db, 'INSERT INTO fed_queue (message, ready_at, lane) VALUES (?, ?, ?)');
    this.db.transaction(() => {
      for (const r of rows) insert.run(JSON.stringify(r.message), r.readyAt, laneOf(r.message));
    })();
  }

  async getDepth(): Promise<MessageQueueDepth> {
    const now = Date.now();
    const row = stmt<[number], { queued: number; ready: number }>(this.db, 'SELECT count(*) AS queued, count(*) FILTER (WHERE ready_at <= ?) AS ready FROM fed_queue').get(now)!;
    return { queued: row.queued, ready: row.ready, delayed: row.queued - row.ready };
  }

  /** Handles ready messages until the signal aborts; never more than the limits allow at once. */
  async listen(handler: (message: unknown) => Promise<void> | void, options?: MessageQueueListenOptions): Promise<void> {
    const signal = options?.signal;
    const running = new Set<Promise<void>>();
    while (!signal?.aborted) {
      const next = this.take();
      if (next) {
        const job = this.run(next, handler).finally(() => {
          running.delete(job);
          this.wake?.();
        });
        running.add(job);
        // A turn of the event loop between messages: requests get theirs even while a burst of
        // messages (hundreds made ready at once) is handled one promise after the other.
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      await this.sleep(signal);
    }
    await Promise.allSettled(running);
  }

  private async run(row: QueuedRow, handler: (message: unknown) => Promise<void> | void): Promise<void> {
    let h: Handling | undefined;
    const started = performance.now();
    try {
      const message = JSON.parse(row.message) as { type?: string };
      const inbox = this.o.guard && deliveryInbox(message);
      const refused = inbox ? await this.o.guard!.problem(inbox) : undefined;
      if (refused) {
        this.onError(new Error(`dropped a delivery to ${inbox}: ${refused}`));
        return;
      }
      const own = typeof message?.type === 'string' ? this.jobs.get(message.type) : undefined;
      const send = () => (own ? own(message as { type: string }) : handler(message));
      // A delivery's requests (and the redirects it follows) go only where the guard allows.
      const handle = inbox ? () => this.o.guard!.sending(send) : send;
      if (own || HAS_SUCCESSORS.has(message?.type as string)) {
        h = { queue: this, row, successors: [], open: true };
        await handling.run(h, handle);
      } else {
        await handle();
      }
    } catch (error) {
      // Fedify handles its own failures; anything that still escapes is reported and dropped,
      // rather than tried again for ever.
      this.onError(error);
    } finally {
      if (h) h.open = false;
      // Its successors take its place in one step, committed with the other writes of this turn.
      if (this.db.open) {
        await writeTogether(this.db, () => {
          if (h?.successors.length) this.insert(h.successors);
          stmt(this.db, 'DELETE FROM fed_queue WHERE id = ?').run(row.id);
        }).catch((error: unknown) => this.onError(error));
      }
      this.inFlight.delete(row.id);
      this.laneLoad.set(row.lane, (this.laneLoad.get(row.lane) ?? 1) - 1);
      if (row.lane !== INBOX_LANE && this.busy()) {
        const share = this.limits.busyShare;
        this.outgoingPausedUntil = Date.now() + Math.min(MAX_BUSY_PAUSE_MS, ((performance.now() - started) * (1 - share)) / share);
      }
      this.o.handled?.();
    }
  }

  /** Lanes with as many messages in hand as they may have. */
  private fullLanes(): string {
    return JSON.stringify([...this.laneLoad].filter(([lane, n]) => lane.startsWith('host:') && n >= this.limits.perLane).map(([lane]) => lane));
  }

  /**
   * While the hub answers requests and enough outgoing work is in hand, or outgoing work had its
   * share of the time, only received activities start.
   */
  private holdingBack(): boolean {
    return this.busy() && (this.inFlight.size - (this.laneLoad.get(INBOX_LANE) ?? 0) >= this.limits.whileBusy || Date.now() < this.outgoingPausedUntil);
  }

  /** The oldest ready message whose lane has room, marked as taken; undefined when none may start. */
  private take(): QueuedRow | undefined {
    if (this.inFlight.size >= this.limits.workers || !this.db.open) return undefined;
    const inHand = JSON.stringify([...this.inFlight]);
    const row = this.holdingBack()
      ? stmt<[string, number, string], QueuedRow>(
          this.db,
          'SELECT id, message, lane, ready_at FROM fed_queue WHERE lane = ? AND ready_at <= ? AND id NOT IN (SELECT value FROM json_each(?)) ORDER BY ready_at, id LIMIT 1',
        ).get(INBOX_LANE, Date.now(), inHand)
      : stmt<[number, string, string], QueuedRow>(
          this.db,
          `SELECT id, message, lane, ready_at FROM fed_queue INDEXED BY fed_queue_ready_idx WHERE ready_at <= ? AND id NOT IN (SELECT value FROM json_each(?))
             AND lane NOT IN (SELECT value FROM json_each(?)) ORDER BY ready_at, id LIMIT 1`,
        ).get(Date.now(), inHand, this.fullLanes());
    if (!row) return undefined;
    this.inFlight.add(row.id);
    this.laneLoad.set(row.lane, (this.laneLoad.get(row.lane) ?? 0) + 1);
    return row;
  }

  /**
   * Waits for an enqueue, a finished job (which makes room), the next delayed message of a lane
   * with room, or the signal.
   */
  private sleep(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      // Held back for requests, it looks again every 50 ms (unless work in hand finishes first).
      const holdingBack = this.holdingBack();
      const nextReady =
        this.inFlight.size >= this.limits.workers || !this.db.open || holdingBack
          ? undefined
          : stmt<[string, string], { t: number }>(
              this.db,
              `SELECT ready_at AS t FROM fed_queue INDEXED BY fed_queue_ready_idx WHERE id NOT IN (SELECT value FROM json_each(?))
                 AND lane NOT IN (SELECT value FROM json_each(?)) ORDER BY ready_at, id LIMIT 1`,
            ).get(JSON.stringify([...this.inFlight]), this.fullLanes())?.t;
      const wait = holdingBack ? 50 : nextReady == null ? 60_000 : Math.max(5, nextReady - Date.now());
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, Math.min(wait, 60_000));
      this.wake = done;
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
