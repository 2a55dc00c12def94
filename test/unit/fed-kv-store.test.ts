import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../server/db/open.js';
import { SqliteKvStore } from '../../server/federation/kv-store.js';

test("the federation's key-value store compares values in cas, not their texts", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-kv-'));
  const db = openDatabase(join(dir, 'hearth.db'));
  try {
    const kv = new SqliteKvStore(db);
    // Fedify's circuit breaker writes a state, reads it back and names it as the expected value,
    // its keys now in another order.
    await kv.set(['circuit', 'example.org'], { state: 'half-open', failures: ['t1'], opened: 't0', version: 1, halfOpened: 't2' });
    const read = (await kv.get<Record<string, unknown>>(['circuit', 'example.org']))!;
    const reordered = { state: read.state, failures: read.failures, opened: read.opened, halfOpened: read.halfOpened, version: read.version };
    assert.equal(await kv.cas(['circuit', 'example.org'], reordered, undefined), true, 'the same value, its keys in another order');
    assert.equal(await kv.get(['circuit', 'example.org']), undefined);
    // A different value still fails, and an absent one matches only undefined.
    await kv.set(['k'], { a: 1, b: [1, 2] });
    assert.equal(await kv.cas(['k'], { a: 1, b: [2, 1] }, { a: 2 }), false);
    assert.equal(await kv.cas(['k'], { b: [1, 2], a: 1 }, { a: 2 }), true);
    assert.deepEqual(await kv.get(['k']), { a: 2 });
    assert.equal(await kv.cas(['absent'], { a: 1 }, 1), false);
    assert.equal(await kv.cas(['absent'], undefined, 1), true);
    assert.equal(await kv.get(['absent']), 1);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
