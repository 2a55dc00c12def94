import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allWide, openDatabase, stmt } from '../../server/db/open.js';
import { insertItem, ITEM_DEFAULTS } from '../../server/store/items.js';

test('allWide returns the same rows as the driver, named or positional parameters', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-wide-'));
  const db = openDatabase(join(dir, 'hearth.db'));
  db.pragma('foreign_keys = OFF'); // items without a channel row
  try {
    for (const [i, body] of ['first', 'second', 'third'].entries()) {
      insertItem(db, { ...ITEM_DEFAULTS, uid: 1, mid: `m${i}@x`, body, item_starred: i, title: `t${i}` });
    }
    const sql = 'SELECT * FROM item WHERE id >= @from ORDER BY id DESC';
    assert.deepEqual(allWide(db, sql, { from: 2 }), stmt(db, sql).all({ from: 2 }));
    assert.equal(allWide<{ body: string }>(db, sql, { from: 1 }).length, 3);
    const positional = 'SELECT * FROM item WHERE id IN (?, ?)';
    assert.deepEqual(allWide(db, positional, [1, 3]), stmt(db, positional).all(1, 3));
    assert.deepEqual(allWide(db, 'SELECT * FROM item WHERE id > 99', []), []);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
