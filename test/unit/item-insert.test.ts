import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, stmt } from '../../server/db/open.js';
import { getItem, insertStoredItem, ITEM_DEFAULTS } from '../../server/store/items.js';

function withDb(run: (db: ReturnType<typeof openDatabase>) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-insert-'));
  const db = openDatabase(join(dir, 'hearth.db'));
  db.pragma('foreign_keys = OFF'); // items without a channel row
  try {
    run(db);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const item = (mid: string, extra: Partial<typeof ITEM_DEFAULTS> = {}) => ({ ...ITEM_DEFAULTS, uid: 1, mid, body: `body of ${mid}`, item_starred: 1, ...extra });

test('insertStoredItem returns the row exactly as SELECT * reads it, keys in column order', () => {
  withDb((db) => {
    const top = insertStoredItem(db, item('a@x'), { ownThread: true });
    assert.equal(top.parent, top.id, 'a thread top is its own parent');
    assert.equal(JSON.stringify(top), JSON.stringify(getItem(db, top.id)));
    const reply = insertStoredItem(db, item('b@x', { parent: top.id, parent_mid: 'a@x' }), { ownThread: false });
    assert.equal(reply.parent, top.id);
    assert.equal(JSON.stringify(reply), JSON.stringify(getItem(db, reply.id)));
  });
});

test('insertStoredItem: a thread top gets its own id as parent after deletions and explicit ids', () => {
  withDb((db) => {
    const first = insertStoredItem(db, item('a@x'), { ownThread: true });
    stmt(db, 'DELETE FROM item WHERE id = ?').run(first.id);
    // AUTOINCREMENT never reuses an id: the next one is past the deleted row.
    const second = insertStoredItem(db, item('b@x'), { ownThread: true });
    assert.equal(second.id, first.id + 1);
    assert.equal(getItem(db, second.id)!.parent, second.id);
    stmt(db, 'INSERT INTO item (id, uid, mid) VALUES (80, 1, ?)').run('d@x');
    const third = insertStoredItem(db, item('e@x'), { ownThread: true });
    assert.equal(third.id, 81);
    assert.equal(getItem(db, third.id)!.parent, 81);
    assert.equal(third.parent, 81);
  });
});
