import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { uuid } from '../../server/util/ids.js';

test('uuid() is an RFC 9562 version 7 UUID carrying the current time', () => {
  const before = Date.now();
  const id = uuid();
  const after = Date.now();
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const millis = Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
  assert.ok(millis >= before && millis <= after, `${millis} not within ${before}..${after}`);
});

test('uuids made later sort after earlier ones, and never repeat', async () => {
  const first = Array.from({ length: 1000 }, uuid);
  assert.equal(new Set(first).size, first.length);
  await sleep(3);
  const later = uuid();
  for (const id of first) assert.ok(id < later, `${id} should sort before ${later}`);
});
