import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seed, type Manifest } from '../../bench/seed.js';
import { SEED_SIZES } from '../../bench/options.js';
import { openDatabase, stmt, type Db } from '../../server/db/open.js';
import {
  channelStreamThreadIds, conversationItems, exportPageItems, iterateWallItems, networkThreadIds, threadsItems, type PortableItemRow,
} from '../../server/store/item-streams.js';
import { portableItem } from '../../server/serializers/native/portable-item.js';
import { toDbDate } from '../../server/util/time.js';

/*
 * The stream and export lists read a page's items with one query and their xchans, terms and
 * iconfig with one query each. Their answers must be those of the former way — one query per
 * thread with the xchans joined and terms and iconfig as correlated JSON subqueries — kept here as
 * the reference, on a hub seeded by the benchmark's seeder with a few rarer cases added.
 */

const XCHAN_PARTS = ['name', 'addr', 'url', 'network', 'photo_mimetype', 'photo_m', 'guid', 'guid_sig', 'pubkey'] as const;
const REFERENCE_SELECT = `SELECT item.*,
  ${XCHAN_PARTS.map((p) => `ox.xchan_${p} AS "owner.${p}", ax.xchan_${p} AS "author.${p}"`).join(',\n  ')},
  (SELECT json_group_array(json_object('ttype', t.ttype, 'term', t.term, 'url', t.url)) FROM term t WHERE t.otype = 1 AND t.oid = item.id) AS "terms.json",
  (SELECT json_group_array(json_object('cat', c.cat, 'k', c.k, 'v', c.v, 'sharing', c.sharing)) FROM iconfig c WHERE c.iid = item.id) AS "iconfig.json"
FROM item
LEFT JOIN xchan ox ON ox.xchan_hash = item.owner_xchan
LEFT JOIN xchan ax ON ax.xchan_hash = item.author_xchan`;
const SHOWN = `item.item_hidden = 0 AND item.item_deleted = 0 AND item.item_unpublished = 0 AND item.item_pending_remove = 0
  AND item.item_blocked = 0 AND item.item_delayed = 0 AND (item.expires = '0001-01-01 00:00:00' OR item.expires > @now)`;

function referenceRow(raw: Record<string, unknown>): PortableItemRow {
  const row: Record<string, unknown> = {};
  const owner: Record<string, unknown> = {};
  const author: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k.startsWith('owner.')) owner[k.slice(6)] = v;
    else if (k.startsWith('author.')) author[k.slice(7)] = v;
    else if (k !== 'terms.json' && k !== 'iconfig.json') row[k] = v;
  }
  return { ...row, owner, author, terms: JSON.parse(raw['terms.json'] as string), iconfig: JSON.parse(raw['iconfig.json'] as string) } as unknown as PortableItemRow;
}

function referenceThread(db: Db, parent: number, now: string): PortableItemRow[] {
  return stmt<{ parent: number; now: string }, Record<string, unknown>>(
    db,
    `${REFERENCE_SELECT} WHERE item.parent = @parent AND ${SHOWN} ORDER BY item.item_thread_top DESC, item.created, item.id`,
  ).all({ parent, now }).map(referenceRow);
}

function referenceChannelThreadIds(db: Db, uid: number, mindate: string, now: string, max: number): number[] {
  return stmt<{ uid: number; mindate: string; now: string; max: number }, { parent: number }>(
    db,
    `SELECT item.parent FROM item WHERE item.uid = @uid AND item.item_wall = 1 AND item.item_type = 0 AND ${SHOWN}
       AND (item.created > @mindate OR item.changed > @mindate)
     GROUP BY item.parent ORDER BY min(item.created), item.parent LIMIT @max`,
  ).all({ uid, mindate, now, max }).map((r) => r.parent);
}

const stream = (rows: PortableItemRow[]) => JSON.stringify(rows.map((r) => portableItem(r, { mirror: false })));
const backup = (rows: Iterable<PortableItemRow>) => JSON.stringify([...rows].map((r) => portableItem(r, { mirror: true, chanviewBase: 'http://hub.example' })));

let dir: string;
let db: Db;
let m: Manifest;
const now = toDbDate(new Date(Date.now() + 60_000));

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hearth-stream-batches-'));
  m = await seed(join(dir, 'data'), { ...SEED_SIZES.tiny, items: 1500, photos: 0, files: 0, bigFileBytes: 1024 });
  db = openDatabase(join(dir, 'data', 'hearth.db'));
  const owner = m.channels[0]!.id;
  const items = db.prepare('SELECT id FROM item WHERE uid = ? ORDER BY id').all(owner) as { id: number }[];
  const pick = (i: number) => items[Math.floor((items.length * i) / 10)]!.id;
  // Rarer cases: iconfig rows, a hidden reply, an old post edited recently, an item whose author has no xchan row.
  db.prepare("INSERT INTO iconfig (iid, cat, k, v, sharing) VALUES (?, 'system', 'zeta', 'z', 1), (?, 'system', 'alpha', 'a', 0), (?, 'diaspora', 'x', '1', 1)").run(pick(9), pick(9), pick(8));
  db.prepare('UPDATE item SET item_hidden = 1 WHERE id = ? AND item_thread_top = 0').run(pick(7));
  db.prepare('UPDATE item SET changed = ?, edited = ? WHERE id = ?').run(toDbDate(new Date()), toDbDate(new Date()), pick(1));
  db.prepare("UPDATE item SET author_xchan = 'no-such-xchan' WHERE id = ?").run(pick(6));
  // Every fifth item edited today: in a window reaching back past most of the items, fewer of them
  // were created before it than changed in it (channelStreamThreadIds then reads the former).
  const edit = db.prepare('UPDATE item SET changed = ?, edited = ? WHERE id = ?');
  for (let i = 0; i < items.length; i += 5) edit.run(toDbDate(new Date()), toDbDate(new Date()), items[i]!.id);
});

after(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('channel/stream: the same threads and items as before, for short and long windows', () => {
  const uid = m.channels[0]!.id;
  const day = 86400_000;
  for (const days of [1, 14, 100, 365, 600, 700, 800]) {
    const mindate = toDbDate(new Date(Date.now() - days * day));
    for (const max of [3, 201]) {
      const ids = channelStreamThreadIds(db, uid, mindate, now, max);
      assert.deepEqual(ids, referenceChannelThreadIds(db, uid, mindate, now, max), `threads since ${days} days, at most ${max}`);
      assert.equal(stream(threadsItems(db, ids, now)), stream(ids.flatMap((id) => referenceThread(db, id, now))), `items since ${days} days`);
    }
  }
});

test('network/stream: the same items as before for pages of threads', () => {
  const c = m.channels[0]!;
  for (const order of ['commented', 'created'] as const) {
    for (const offset of [0, 7]) {
      const ids = networkThreadIds(db, { uid: c.id, observer: c.hash, now, order, limit: 30, offset, itemType: 0 });
      assert.ok(ids.length > 0);
      assert.equal(stream(threadsItems(db, ids, now)), stream(ids.flatMap((id) => referenceThread(db, id, now))), `${order} from ${offset}`);
    }
  }
});

test('network/stream since_id: the newest threads after it, the same whichever way they are found', () => {
  const c = m.channels[0]!;
  const base = { uid: c.id, observer: c.hash, now, itemType: 0, offset: 0 };
  const maxId = (db.prepare('SELECT max(id) AS m FROM item').get() as { m: number }).m;
  for (const order of ['commented', 'created'] as const) {
    const all = networkThreadIds(db, { ...base, order, limit: 100_000 });
    // A few newer rows (read after since_id) and many (the walk by activity).
    for (const sinceId of [maxId - 40, maxId - 400, 0]) {
      const expected = all.filter((id) => id > sinceId).slice(0, 10);
      assert.deepEqual(networkThreadIds(db, { ...base, order, limit: 10, sinceId }), expected, `${order} since ${sinceId}`);
    }
  }
});

test('network/stream by activity reads only tops it can show: hidden tops newer than the page (photos) are not walked', () => {
  const c = m.channels[0]!;
  const query = { uid: c.id, observer: c.hash, now, order: 'commented' as const, limit: 20, offset: 0 };
  const before = networkThreadIds(db, query);
  // An album upload: many hidden thread tops, newer than every post.
  const top = db.prepare('SELECT * FROM item WHERE uid = ? AND item_thread_top = 1 LIMIT 1').get(c.id) as Record<string, unknown>;
  const columns = Object.keys(top).filter((k) => k !== 'id');
  const insert = db.prepare(`INSERT INTO item (${columns.join(', ')}) VALUES (${columns.map((k) => `@${k}`).join(', ')})`);
  const photos: number[] = [];
  db.transaction(() => {
    for (let i = 0; i < 50; i++) {
      const mid = `photo-item-${i}`;
      const id = Number(insert.run({ ...top, mid, parent_mid: mid, thr_parent: mid, uuid: mid, item_hidden: 1, resource_type: 'photo', commented: now, created: now, changed: now }).lastInsertRowid);
      db.prepare('UPDATE item SET parent = id WHERE id = ?').run(id);
      photos.push(id);
    }
  })();
  try {
    // A connection of its own, so that its statements are prepared (and seen) here.
    const own = openDatabase(join(dir, 'data', 'hearth.db'));
    try {
      const prepared: string[] = [];
      const prepare = own.prepare.bind(own);
      own.prepare = ((sql: string) => (prepared.push(sql), prepare(sql))) as typeof own.prepare;
      assert.deepEqual(networkThreadIds(own, query), before);
      const walk = prepared.find((sql) => sql.includes('ORDER BY item.commented DESC'));
      assert.ok(walk, 'the walk by activity');
      const plan = (prepare(`EXPLAIN QUERY PLAN ${walk}`).all({ ...query, uid: c.id }) as { detail: string }[]).map((r) => r.detail);
      assert.ok(plan.some((d) => /item USING INDEX item_shown_top_commented_idx/.test(d)), plan.join('\n'));
      assert.ok(!plan.some((d) => /TEMP B-TREE FOR ORDER BY/.test(d)), plan.join('\n'));
    } finally {
      own.close();
    }
  } finally {
    db.prepare('DELETE FROM item WHERE id IN (SELECT value FROM json_each(?))').run(JSON.stringify(photos));
  }
});

test('item/full and the exports: the same backup records as before', () => {
  const uid = m.channels[0]!.id;
  const tops = db.prepare('SELECT id FROM item WHERE uid = ? AND item_thread_top = 1 ORDER BY commented DESC LIMIT 5').all(uid) as { id: number }[];
  for (const { id } of tops) {
    const reference = stmt<[number], Record<string, unknown>>(db, `${REFERENCE_SELECT} WHERE item.parent = ? AND item.item_deleted = 0 ORDER BY item.item_thread_top DESC, item.created, item.id`).all(id).map(referenceRow);
    assert.equal(backup(conversationItems(db, id)), backup(reference));
  }
  const wall = stmt<[number, string], Record<string, unknown>>(
    db,
    `${REFERENCE_SELECT} WHERE item.uid = ? AND item.item_wall = 1 AND item.item_deleted = 0 AND item.resource_type = '' AND item.created >= ? ORDER BY item.created, item.id`,
  ).all(uid, '0001-01-01 00:00:00').map(referenceRow);
  assert.ok(wall.length > 250, 'more items than one batch');
  assert.equal(backup(iterateWallItems(db, uid, '0001-01-01 00:00:00')), backup(wall));
  const page = exportPageItems(db, { uid, since: '0001-01-01 00:00:00', until: now, limit: 40, offset: 20 }).items;
  assert.equal(page.length, 40);
  const pageIds = new Set(page.map((r) => r.id));
  assert.equal(backup(page), backup(wall.filter((r) => pageIds.has(r.id))));
});
