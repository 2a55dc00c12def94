import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Temporal } from '@js-temporal/polyfill';
import { openDatabase, type Db } from '../../server/db/open.js';
import { SqliteMessageQueue } from '../../server/federation/message-queue.js';

type Msg = { type: string; n: number; inbox?: string };

/** A promise and its resolve function. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * A queue on a new database, listened to with `handler` (which may wait for `finish`, standing
 * for a process that dies meanwhile); everything is let go and stopped at the end, pass or fail.
 */
function withQueue(
  run: (q: { db: Db; queue: SqliteMessageQueue; listen(handler: (m: Msg) => Promise<void>): void; finish: ReturnType<typeof gate> }) => Promise<void>,
  o: { busy?: () => boolean } = {},
) {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-queue-'));
    const db = openDatabase(join(dir, 'hearth.db'));
    const queue = new SqliteMessageQueue(db, { workers: 4, perLane: 2, whileBusy: 1 }, () => {}, { busy: o.busy });
    const stop = new AbortController();
    const finish = gate();
    let listening: Promise<void> = Promise.resolve();
    try {
      await run({ db, queue, finish, listen: (handler) => (listening = queue.listen((m) => handler(m as Msg), { signal: stop.signal })) });
    } finally {
      finish.open();
      stop.abort();
      await listening;
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

const queued = (db: Db) => (db.prepare('SELECT message FROM fed_queue ORDER BY id').all() as { message: string }[]).map((r) => (JSON.parse(r.message) as Msg).n);
const later = { delay: Temporal.Duration.from({ minutes: 1 }) };
const until = async (done: () => boolean) => {
  while (!done()) await new Promise((r) => setTimeout(r, 5));
};

test(
  "a delivery's retry is written together with the removal of the delivery: a crash in between leaves one of them, never both",
  withQueue(async ({ db, queue, listen, finish }) => {
    await queue.enqueue({ type: 'outbox', inbox: 'http://example.org/inbox', n: 1 });
    const retried = gate();
    let done = false;
    listen(async (m) => {
      if (m.n !== 1) return;
      await queue.enqueue({ ...m, n: 2 }, later);
      retried.open();
      await finish.opened; // the process could die here
      done = true;
    });
    await retried.opened;
    assert.deepEqual(queued(db), [1], 'until the handler is done, the queue holds the delivery and not its retry');
    finish.open();
    await until(() => done && queued(db)[0] !== 1);
    assert.deepEqual(queued(db), [2], 'then the retry alone');
  }),
);

test(
  "a fan-out's deliveries replace the fan-out in one step",
  withQueue(async ({ db, queue, listen, finish }) => {
    await queue.enqueue({ type: 'fanout', n: 1 });
    const fannedOut = gate();
    const handled: number[] = [];
    listen(async (m) => {
      if (m.type === 'fanout') {
        await queue.enqueueMany([10, 11, 12].map((n) => ({ type: 'outbox', inbox: `http://host${n}.example/inbox`, n })));
        fannedOut.open();
      }
      await finish.opened;
      handled.push(m.n);
    });
    await fannedOut.opened;
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(queued(db), [1], 'no delivery is written, let alone started, before the fan-out is done');
    finish.open();
    await until(() => handled.length >= 4 && queued(db).length === 0);
    assert.deepEqual(handled.sort((a, b) => a - b), [1, 10, 11, 12], 'each delivery handled once');
  }),
);

test(
  'what a received activity sends is queued at once (it stands on its own)',
  withQueue(async ({ db, queue, listen, finish }) => {
    await queue.enqueue({ type: 'inbox', n: 1 });
    const sent = gate();
    listen(async (m) => {
      if (m.type !== 'inbox') return;
      await queue.enqueue({ type: 'outbox', inbox: 'http://example.org/inbox', n: 2 }, later);
      sent.open();
      await finish.opened;
    });
    await sent.opened;
    assert.deepEqual(queued(db), [1, 2]);
    finish.open();
    await until(() => queued(db)[0] !== 1);
    assert.deepEqual(queued(db), [2]);
  }),
);

test(
  "the hub's own jobs are queued synchronously, inside the caller's transaction, and handled by their handler",
  withQueue(async ({ db, queue, listen }) => {
    const handled: number[] = [];
    queue.handle('hearth.test', async (job) => {
      handled.push((job as Msg).n);
    });
    db.transaction(() => queue.push({ type: 'hearth.test', n: 1 } as Msg))();
    assert.throws(() =>
      db.transaction(() => {
        queue.push({ type: 'hearth.test', n: 2 } as Msg);
        throw new Error('rolled back');
      })(),
    );
    assert.deepEqual(queued(db), [1]);
    let askedFedify = false;
    listen(async () => {
      askedFedify = true;
    });
    await until(() => handled.length >= 1 && queued(db).length === 0);
    assert.deepEqual(handled, [1]);
    assert.equal(askedFedify, false, "Fedify's handler is not asked");
  }),
);

let busy = true;
test(
  'while the hub answers requests, one outgoing message at a time is in hand; received activities are not held back',
  withQueue(
    async ({ queue, listen, finish }) => {
      await queue.enqueueMany([1, 2, 3].map((n) => ({ type: 'outbox', inbox: `http://host${n}.example/inbox`, n })));
      await queue.enqueue({ type: 'inbox', n: 4 });
      const started: number[] = [];
      listen(async (m) => {
        started.push(m.n);
        if (m.type !== 'inbox') await finish.opened;
      });
      await until(() => started.length >= 2);
      await new Promise((r) => setTimeout(r, 150));
      assert.deepEqual(started.sort(), [1, 4], 'one delivery, and the received activity');
      busy = false;
      await until(() => started.length >= 4);
      assert.deepEqual(started.sort(), [1, 2, 3, 4], 'the rest once the requests are answered');
    },
    { busy: () => busy },
  ),
);
