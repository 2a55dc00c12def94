import type { MessageQueue, MessageQueueDepth, MessageQueueEnqueueOptions, MessageQueueListenOptions } from '@fedify/fedify';
import { stmt, type Db } from '../db/open.js';
import { deliveryInbox, type DeliveryGuard } from './delivery-guard.js';

export interface QueueLimits {
  /** Messages handled at once, all lanes together. */
  workers: number;
  /** Messages of one lane (deliveries to one host) handled at once. */
  perLane: number;
}

export const DEFAULT_QUEUE_LIMITS: QueueLimits = { workers: 16, perLane: 4 };

interface QueuedRow {
  id: number;
  message: string;
  lane: string;
}

/** Deliveries to one host share a lane; other messages (fan-out, received activities) one lane each kind. */
function laneOf(message: unknown): string {
  const m = message as { type?: string; inbox?: string };
  if (m?.type === 'outbox' && typeof m.inbox === 'string') {
    try {
      return 'host:' + new URL(m.inbox).host;
    } catch {
      return 'host:?';
    }
  }
  return '';
}

/**
 * Fedify's message queue in the hub's database. A message stays in its table until its handler has
 * finished, so what was queued survives a restart or kill -9 and is handled after it; Fedify itself
 * schedules retries (nativeRetrial is false) by enqueueing the next attempt with a delay. With a
 * guard, a delivery whose inbox may not be reached now is dropped (reported to onError) unsent.
 */
export class SqliteMessageQueue implements MessageQueue {
  readonly nativeRetrial = false;
  private readonly inFlight = new Set<number>();
  private readonly laneLoad = new Map<string, number>();
  private wake: (() => void) | undefined;

  constructor(
    private readonly db: Db,
    private readonly limits: QueueLimits = DEFAULT_QUEUE_LIMITS,
    private readonly onError: (error: unknown) => void = () => {},
    private readonly guard?: DeliveryGuard,
  ) {}

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    await this.enqueueMany([message], options);
  }

  async enqueueMany(messages: readonly unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    const delay = options?.delay ? Math.max(0, options.delay.total({ unit: 'millisecond' })) : 0;
    const readyAt = Date.now() + delay;
    const insert = stmt(this.db, 'INSERT INTO fed_queue (message, ready_at, lane) VALUES (?, ?, ?)');
    this.db.transaction(() => {
      for (const m of messages) insert.run(JSON.stringify(m), readyAt, laneOf(m));
    })();
    this.wake?.();
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
        continue;
      }
      await this.sleep(signal);
    }
    await Promise.allSettled(running);
  }

  private async run(row: QueuedRow, handler: (message: unknown) => Promise<void> | void): Promise<void> {
    try {
      const message: unknown = JSON.parse(row.message);
      const inbox = this.guard && deliveryInbox(message);
      const refused = inbox ? await this.guard!.problem(inbox) : undefined;
      if (refused) this.onError(new Error(`dropped a delivery to ${inbox}: ${refused}`));
      else await handler(message);
    } catch (error) {
      // Fedify handles its own failures; anything that still escapes is reported and dropped,
      // rather than tried again for ever.
      this.onError(error);
    } finally {
      if (this.db.open) stmt(this.db, 'DELETE FROM fed_queue WHERE id = ?').run(row.id);
      this.inFlight.delete(row.id);
      this.laneLoad.set(row.lane, (this.laneLoad.get(row.lane) ?? 1) - 1);
    }
  }

  /** The oldest ready message whose lane has room, marked as taken; undefined when none may start. */
  private take(): QueuedRow | undefined {
    if (this.inFlight.size >= this.limits.workers || !this.db.open) return undefined;
    const full = [...this.laneLoad].filter(([lane, n]) => lane !== '' && n >= this.limits.perLane).map(([lane]) => lane);
    const rows = stmt<[number, string, string], QueuedRow>(
      this.db,
      `SELECT id, message, lane FROM fed_queue WHERE ready_at <= ? AND id NOT IN (SELECT value FROM json_each(?))
         AND lane NOT IN (SELECT value FROM json_each(?)) ORDER BY ready_at, id LIMIT 1`,
    ).all(Date.now(), JSON.stringify([...this.inFlight]), JSON.stringify(full));
    const row = rows[0];
    if (!row) return undefined;
    this.inFlight.add(row.id);
    this.laneLoad.set(row.lane, (this.laneLoad.get(row.lane) ?? 0) + 1);
    return row;
  }

  /** Waits for an enqueue, a finished job, the next delayed message or the signal. */
  private sleep(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const nextReady = this.inFlight.size >= this.limits.workers ? undefined : stmt<[string], { t: number | null }>(this.db, 'SELECT min(ready_at) AS t FROM fed_queue WHERE id NOT IN (SELECT value FROM json_each(?))').get(JSON.stringify([...this.inFlight]))?.t;
      const wait = nextReady == null ? 60_000 : Math.max(5, nextReady - Date.now());
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
