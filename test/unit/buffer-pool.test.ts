import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BufferPool } from '../../server/util/buffer-pool.js';

test('a buffer given back is handed out again; larger requests get their own, which are not kept', () => {
  const pool = new BufferPool(1024, 2);
  const a = pool.take(100);
  assert.equal(a.length, 1024);
  pool.give(a);
  assert.equal(pool.take(1024), a);
  const big = pool.take(4096);
  assert.equal(big.length, 4096);
  pool.give(big);
  assert.equal(pool.spares, 0);
});

test('at most `keep` spares are held, and a buffer given twice is held once', () => {
  const pool = new BufferPool(64, 2);
  const bufs = [pool.take(64), pool.take(64), pool.take(64)];
  pool.give(bufs[0]!);
  pool.give(bufs[0]!);
  assert.equal(pool.spares, 1);
  for (const b of bufs) pool.give(b);
  assert.equal(pool.spares, 2);
  const again = [pool.take(64), pool.take(64), pool.take(64)];
  assert.equal(new Set(again).size, 3, 'two spares, then a new buffer');
});

test('spares are dropped once the pool has not been used for its idle time', async () => {
  const pool = new BufferPool(64, 4, 50);
  pool.give(pool.take(64));
  assert.equal(pool.spares, 1);
  await new Promise((r) => setTimeout(r, 20));
  pool.give(pool.take(64));
  await new Promise((r) => setTimeout(r, 40));
  assert.equal(pool.spares, 1, 'used 40 ms ago: kept');
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(pool.spares, 0);
});
