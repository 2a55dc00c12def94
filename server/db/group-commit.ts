import type { Db } from './open.js';

interface Job {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const queues = new WeakMap<Db, Job[]>();

/**
 * Runs a synchronous write together with the other writes that become ready in the same turn of
 * the event loop: one transaction, each write in its own savepoint (a failing write is rolled back
 * and fails alone), one commit for all. A commit appends every page it changed to the WAL — dozens
 * for a post with its indexes, terms and notifications — and under concurrent posting the commits
 * cost more than the posts. Nothing waits for company: the batch is written at the end of the turn.
 */
export function writeTogether<T>(db: Db, work: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let queue = queues.get(db);
    if (!queue) {
      queues.set(db, (queue = []));
      setImmediate(() => flush(db));
    }
    queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
  });
}

function flush(db: Db): void {
  const queue = queues.get(db) ?? [];
  queues.delete(db);
  const outcomes: { ok: boolean; value: unknown }[] = [];
  try {
    db.transaction(() => {
      for (const job of queue) {
        try {
          outcomes.push({ ok: true, value: db.transaction(job.work)() });
        } catch (error) {
          outcomes.push({ ok: false, value: error });
        }
      }
    })();
  } catch (error) {
    for (const job of queue) job.reject(error);
    return;
  }
  queue.forEach((job, i) => (outcomes[i]!.ok ? job.resolve(outcomes[i]!.value) : job.reject(outcomes[i]!.value)));
}
