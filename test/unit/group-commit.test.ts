import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../server/db/open.js';
import { writeTogether } from '../../server/db/group-commit.js';
import { getConfig, setConfig } from '../../server/store/config.js';

test('writes ready together commit together, and a failing one is rolled back and fails alone', async () => {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'hearth-gc-')), 'h.db'));
  try {
    const results = await Promise.allSettled([
      writeTogether(db, () => (setConfig(db, 'gc', 'a', '1'), 'first')),
      writeTogether(db, () => {
        setConfig(db, 'gc', 'b', '2');
        throw new Error('refused');
      }),
      writeTogether(db, () => (setConfig(db, 'gc', 'c', '3'), 'third')),
    ]);
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
    assert.equal((results[0] as PromiseFulfilledResult<string>).value, 'first');
    assert.equal(((results[1] as PromiseRejectedResult).reason as Error).message, 'refused');
    assert.equal(getConfig(db, 'gc', 'a'), '1');
    assert.equal(getConfig(db, 'gc', 'b'), undefined, 'the failed write left nothing');
    assert.equal(getConfig(db, 'gc', 'c'), '3');
    assert.equal(db.inTransaction, false);
    // A later write starts a new batch.
    assert.equal(await writeTogether(db, () => (setConfig(db, 'gc', 'd', '4'), 'later')), 'later');
    assert.equal(getConfig(db, 'gc', 'd'), '4');
  } finally {
    db.close();
  }
});
