import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createHub, type HubOptions } from '../../server/hub.js';
import { openDatabase } from '../../server/db/open.js';
import { createChannel } from '../../server/services/channels.js';
import { insertItem, ITEM_DEFAULTS } from '../../server/store/items.js';
import { PASSWORD } from '../helpers/hub.js';
import { killHard, spawnHub } from '../helpers/child-hub.js';

// The start must not wait for the integrity check: SQLite's checks read every page of the
// database and the comparison lists every file of the store, which takes seconds after years of
// use. The tests hold the check before it ends and ask the hub a question meanwhile: if answering
// waited for the check, the answer would never come before the check is let go.

/** Enough posts that SQLite's checks take a while on the serving connection, were they run there. */
const ITEMS = 40_000;

let dataDir: string;

before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'hearth-start-'));
  const db = openDatabase(join(dataDir, 'hearth.db'));
  await createChannel(db, { baseUrl: 'http://127.0.0.1:8420' }, { nick: 'alice', password: PASSWORD, email: 'alice@example.com' });
  const body = 'A post of a few words, long enough to fill the pages of a busy year. '.repeat(6);
  db.transaction(() => {
    for (let i = 0; i < ITEMS; i++) {
      const uuid = randomUUID();
      insertItem(db, { ...ITEM_DEFAULTS, uid: 1, uuid, mid: `http://127.0.0.1:8420/item/${uuid}`, body, html: body });
    }
  })();
  // Something only SQLite's own checks find: a row whose channel does not exist.
  db.pragma('foreign_keys = OFF');
  db.prepare("INSERT INTO pconfig (uid, cat, k, v) VALUES (999, 'test', 'dangling', '1')").run();
  db.close();
});

after(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** Runs `hearth serve` on the data and kills it with SIGKILL once it serves: an unclean stop. */
async function crash(): Promise<void> {
  await killHard(await spawnHub(dataDir));
}

/** A check that waits at its first repair until `release` is called. */
function heldCheck(): { options: HubOptions['integrity']; release: () => void } {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  return { options: { delayMs: 0, pauseMs: 0, beforeRepair: () => held }, release };
}

/** Starts a hub, asks it one question, and says what happened first: the answer or the check's end. */
async function firstEvents(options: Partial<HubOptions>) {
  const hub = await createHub({ dataDir, port: 0, ...options });
  const events: string[] = [];
  void hub.integrity.then(
    () => events.push('check ended'),
    () => events.push('check failed'),
  );
  const url = await hub.listen();
  const res = await fetch(`${url}/api/v1/instance`);
  await res.arrayBuffer();
  events.push(`answer ${res.status}`);
  return { hub, events: [...events] };
}

const sqliteFindings = (repaired: string[]) => repaired.filter((r) => /foreign key|quick_check/.test(r));

test('after kill -9 the hub answers while its full check still runs, and the check then reports what SQLite found', async () => {
  await crash();
  const check = heldCheck();
  const { hub, events } = await firstEvents({ integrity: check.options });
  try {
    assert.deepEqual(events, ['answer 200'], 'the first answer waited for the integrity check');
    check.release();
    const report = await hub.integrity;
    assert.deepEqual(sqliteFindings(report.repaired), ['1 foreign key violations found'], report.repaired.join('; '));
  } finally {
    check.release();
    await hub.close();
  }
});

test('after a clean stop the hub serves without looking at the store, and leaves SQLite’s checks to unclean stops', async () => {
  // A file nobody refers to: the store's check removes it whenever it runs.
  const key = randomBytes(32).toString('hex');
  const orphan = join(dataDir, 'store', key.slice(0, 2), key.slice(2, 4), key);
  await mkdir(join(orphan, '..'), { recursive: true });
  await writeFile(orphan, 'nobody refers to me');

  // With the usual pace the check waits until the start's requests are served.
  const { hub, events } = await firstEvents({});
  try {
    assert.deepEqual(events, ['answer 200']);
    assert.ok(existsSync(orphan), 'the start looked through the store before its first answer');
  } finally {
    await hub.close();
  }
  assert.ok(existsSync(orphan), 'the check ran before the stop, long before its time');

  // The routine check, hurried: the store against the database only.
  const again = await createHub({ dataDir, port: 0, integrity: { delayMs: 0, pauseMs: 0 } });
  try {
    const report = await again.integrity;
    assert.equal(report.orphanFiles, 1, report.repaired.join('; '));
    assert.deepEqual(sqliteFindings(report.repaired), [], 'SQLite’s checks ran after a clean stop');
    assert.equal(existsSync(orphan), false);
  } finally {
    await again.close();
  }
});

test('a full check cut short by a clean stop runs again at the next start', async () => {
  await crash();
  const check = heldCheck();
  const first = await createHub({ dataDir, port: 0, integrity: check.options });
  await first.close();

  const next = await createHub({ dataDir, port: 0, integrity: { delayMs: 0, pauseMs: 0 } });
  try {
    const report = await next.integrity;
    assert.deepEqual(sqliteFindings(report.repaired), ['1 foreign key violations found'], report.repaired.join('; '));
  } finally {
    await next.close();
  }
  // Once it ended, a clean stop leaves the next start the routine check again.
  const routine = await createHub({ dataDir, port: 0, integrity: { delayMs: 0, pauseMs: 0 } });
  try {
    assert.deepEqual(sqliteFindings((await routine.integrity).repaired), []);
  } finally {
    await routine.close();
  }
});

test('a database damaged before an unclean stop is reported by the next start’s check, and the hub serves meanwhile', async () => {
  await crash();
  // A page of an index no start reads is overwritten, as a failing disk would.
  const db = openDatabase(join(dataDir, 'hearth.db'));
  db.pragma('wal_checkpoint(TRUNCATE)');
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const page = db.prepare("SELECT pageno FROM dbstat WHERE name = 'item_mid_idx' AND pagetype = 'leaf' LIMIT 1 OFFSET 5").pluck().get() as number;
  db.close();
  assert.ok(Number.isInteger(page), 'no page of the index to damage');
  const file = await open(join(dataDir, 'hearth.db'), 'r+');
  await file.write(Buffer.alloc(64, 0xff), 0, 64, (page - 1) * pageSize);
  await file.close();

  const check = heldCheck();
  const { hub, events } = await firstEvents({ integrity: check.options });
  try {
    assert.deepEqual(events, ['answer 200'], 'the first answer waited for the integrity check');
    check.release();
    const report = await hub.integrity;
    assert.ok(report.repaired.some((r) => r.startsWith('database quick_check reported: ')), report.repaired.join('; '));
  } finally {
    check.release();
    await hub.close();
  }
});

test('a routine check cut short by a stop goes on where it stopped at the next start', async () => {
  // An orphan file in each slice of the store (a slice: the keys that begin with one hex digit).
  const orphans = [...'0123456789abcdef'].map((digit) => digit + randomBytes(32).toString('hex').slice(1));
  for (const key of orphans) {
    await mkdir(join(dataDir, 'store', key.slice(0, 2), key.slice(2, 4)), { recursive: true });
    await writeFile(join(dataDir, 'store', key.slice(0, 2), key.slice(2, 4), key), 'nobody refers to me');
  }
  const left = () => orphans.filter((key) => existsSync(join(dataDir, 'store', key.slice(0, 2), key.slice(2, 4), key))).length;

  /** Starts a hub whose check repairs `slices` slices and is then stopped with the hub. */
  const runFor = async (slices: number) => {
    let repairs = 0;
    let reached = () => {};
    const atLimit = new Promise<void>((resolve) => (reached = resolve));
    const check = heldCheck();
    const hub = await createHub({
      dataDir,
      port: 0,
      integrity: { ...check.options, beforeRepair: () => (repairs++ < slices ? Promise.resolve() : (reached(), check.options!.beforeRepair!())) },
    });
    await atLimit;
    await hub.close();
    return (await hub.integrity).orphanFiles;
  };
  assert.equal(await runFor(3), 3);
  assert.equal(left(), 13);
  // Three slices further on, not the same three again.
  assert.equal(await runFor(3), 3);
  assert.equal(left(), 10);
});
