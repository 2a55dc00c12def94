import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { ResponseCache } from '../../server/http/response-cache.js';

const body = (n: number) => Buffer.alloc(n, 1);

test('an answer is kept only for a URL asked for before within two seconds, and served until the data changes', () => {
  mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
  try {
    const cache = new ResponseCache();
    const first = cache.lookup('1 /a', 'g1');
    assert.deepEqual(first, { hit: undefined, admit: false });
    mock.timers.tick(1500);
    assert.deepEqual(cache.lookup('1 /a', 'g1'), { hit: undefined, admit: true });
    cache.set('1 /a', 'g1', 'application/json', body(10));
    assert.equal(cache.lookup('1 /a', 'g1').hit?.body.length, 10);
    assert.equal(cache.lookup('1 /a', 'g2').hit, undefined, 'another generation retires it');
    mock.timers.tick(2500);
    assert.deepEqual(cache.lookup('1 /b', 'g1'), { hit: undefined, admit: false });
    mock.timers.tick(2500);
    assert.deepEqual(cache.lookup('1 /b', 'g1'), { hit: undefined, admit: false }, 'asked again only after 2.5 s');
  } finally {
    mock.timers.reset();
  }
});

test('answers expire after two seconds, and expired ones are let go when another is stored', () => {
  mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
  try {
    const cache = new ResponseCache();
    cache.set('1 /a', 'g', 'text/xml', body(100));
    cache.set('1 /b', 'g', 'text/xml', body(100));
    assert.equal(cache.size, 200);
    mock.timers.tick(2001);
    assert.equal(cache.lookup('1 /a', 'g').hit, undefined);
    cache.set('1 /c', 'g', 'text/xml', body(50));
    assert.equal(cache.size, 50);
  } finally {
    mock.timers.reset();
  }
});

test('past the byte budget the least recently used answers go first; an answer over an eighth of it is never kept', () => {
  const cache = new ResponseCache();
  const MiB = 1024 * 1024;
  for (const k of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) cache.set(k, 'g', 't', body(2 * MiB));
  assert.equal(cache.size, 16 * MiB);
  assert.ok(cache.lookup('a', 'g').hit, 'a is now the most recently used');
  cache.set('i', 'g', 't', body(2 * MiB));
  assert.equal(cache.lookup('b', 'g').hit, undefined, 'b went first');
  assert.ok(cache.lookup('a', 'g').hit);
  cache.set('big', 'g', 't', body(2 * MiB + 1));
  assert.equal(cache.lookup('big', 'g').hit, undefined);
});
