import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase, type Db } from '../../server/db/open.js';
import { scratchDatabase } from '../helpers/scratch-db.js';
import { pageNotifications } from '../../server/store/notify.js';
import { notificationPage } from '../../server/store/mastodon.js';
import { notificationRun } from '../../server/store/notification-groups.js';
import { getProfilePhotoScale } from '../../server/store/photos.js';

/*
 * What the UI's first screen asks of the hub besides the stream reads a few rows along an index,
 * however much the channel holds: a page of its notifications, newest first by id (the bell at
 * every start; the Mastodon API's notifications and their groups too), from its upper bound; its
 * profile photo (the avatar in the top bar) among the few scales that are one. Neither may read
 * every notification or every photo of the channel and sort them (after years of use, tens and
 * hundreds of thousands of rows).
 */

const scratch = scratchDatabase('notify-pages');
let db: Db;

before(() => {
  db = scratch();
  // Rows of three channels' notifications; the plans need no channels behind them.
  const insert = db.prepare(
    `INSERT INTO notify (hash, xname, url, photo, created, msg, aid, uid, link, iid, parent, seen, ntype, verb, otype, xchan)
     VALUES (?, 'someone', '', '', ?, 'liked your post', 0, ?, '', 0, 0, ?, 1, '', 'item', '')`,
  );
  const photo = db.prepare(
    `INSERT INTO photo (uid, resource_id, created, edited, album, filename, mimetype, height, width, filesize, imgscale, photo_usage, profile)
     VALUES (?, ?, '2020-01-01 00:00:00', '2020-01-01 00:00:00', 'Album', 'a.jpg', 'image/jpeg', 10, 10, 100, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < 300; i++) insert.run(`n${i}`, `2020-01-01 00:00:${String(i % 60).padStart(2, '0')}`, 1 + (i % 3), i % 2);
    // Many photos of channel 1 (four scales each), two profile photos (the later one current).
    for (let i = 0; i < 200; i++) for (let scale = 0; scale < 4; scale++) photo.run(1, `r${i}`, scale, 0, 0);
    for (const r of ['p1', 'p2']) for (const scale of [4, 5, 6]) photo.run(1, r, scale, 1, 1);
  })();
});

/** The query plans of the statements `read` prepares on a connection of its own. */
function plansOf(read: (own: Db) => unknown[]): { rows: unknown[]; plans: string[][] } {
  const own = openDatabase(db.name);
  try {
    const prepared: string[] = [];
    const prepare = own.prepare.bind(own);
    own.prepare = ((sql: string) => (prepared.push(sql), prepare(sql))) as typeof own.prepare;
    const rows = read(own);
    const plans = prepared.map((sql) => {
      const named = sql.includes('@') ? { uid: 1, since: -1, max: Number.MAX_SAFE_INTEGER, count: 40, limit: 40, above: 0, below: Number.MAX_SAFE_INTEGER, types: '[1]' } : undefined;
      const rowsOfPlan = (named ? prepare(`EXPLAIN QUERY PLAN ${sql}`).all(named) : prepare(`EXPLAIN QUERY PLAN ${sql}`).all(1, 6)) as { detail: string }[];
      return rowsOfPlan.map((r) => r.detail);
    });
    return { rows, plans };
  } finally {
    own.close();
  }
}

const newestFirst = (rows: unknown[]) => rows.map((r) => (r as { id: number }).id);

test('ext/notifications with count: a page walks the channel’s notifications by id, no sort of them all', () => {
  const { rows, plans } = plansOf((own) => pageNotifications(own, 1, { count: 40 }));
  const ids = newestFirst(rows);
  assert.equal(ids.length, 40);
  assert.deepEqual(ids, [...ids].sort((a, b) => b - a));
  assert.equal(plans.length, 1);
  assert.ok(plans[0]!.some((d) => /notify USING (COVERING )?INDEX notify_uid_id_idx/.test(d)), plans[0]!.join('\n'));
  assert.ok(!plans[0]!.some((d) => /TEMP B-TREE FOR ORDER BY/.test(d)), plans[0]!.join('\n'));
});

test('the Mastodon API’s notifications and their groups: the same walk, downwards and upwards', () => {
  for (const read of [
    (own: Db) => notificationPage(own, 1, { limit: 40, ntypes: [1] }),
    (own: Db) => notificationPage(own, 1, { limit: 40, ntypes: [1], minId: 10 }),
    (own: Db) => notificationRun(own, 1, { ntypes: [1], above: 0, below: Number.MAX_SAFE_INTEGER, order: 'desc', limit: 40 }),
    (own: Db) => notificationRun(own, 1, { ntypes: [1], above: 0, below: Number.MAX_SAFE_INTEGER, order: 'asc', limit: 40 }),
  ]) {
    const { rows, plans } = plansOf(read);
    assert.ok(rows.length > 0);
    assert.equal(plans.length, 1);
    assert.ok(plans[0]!.some((d) => /notify USING (COVERING )?INDEX notify_uid_id_idx/.test(d)), plans[0]!.join('\n'));
    assert.ok(!plans[0]!.some((d) => /TEMP B-TREE FOR ORDER BY/.test(d)), plans[0]!.join('\n'));
  }
});

test('the profile photo: found among the scales that are one, no sort of all the channel’s photos', () => {
  const { rows, plans } = plansOf((own) => [getProfilePhotoScale(own, 1, 6)]);
  assert.equal((rows[0] as { resource_id: string }).resource_id, 'p2');
  assert.equal(plans.length, 1);
  assert.ok(plans[0]!.some((d) => /photo USING INDEX photo_profile_idx/.test(d)), plans[0]!.join('\n'));
  assert.ok(!plans[0]!.some((d) => /TEMP B-TREE FOR ORDER BY/.test(d)), plans[0]!.join('\n'));
});
