import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import type { Context } from 'koa';
import { setJsonBody, setTextPiecesBody } from '../../server/http/answer-body.js';

function answer(value: unknown): { text: string; res: EventEmitter } {
  const res = new EventEmitter();
  const ctx = { res } as unknown as Context & { body: Buffer };
  setJsonBody(ctx, value);
  assert.ok(Buffer.isBuffer(ctx.body));
  return { text: ctx.body.toString('utf8'), res };
}

const item = (i: number) => ({ id: i, text: `Grüße 🎉 ${'word '.repeat(i % 7)}`, nested: { list: [1, 'two', null], ok: i % 2 === 0 }, rtl: 'שלום', esc: 'quote " backslash \\ newline \n' });

test('setJsonBody writes exactly what JSON.stringify writes, for short and long arrays and other values', () => {
  const values: unknown[] = [
    [],
    [1, 2, 3],
    Array.from({ length: 31 }, (_, i) => item(i)),
    Array.from({ length: 32 }, (_, i) => item(i)),
    Array.from({ length: 500 }, (_, i) => item(i)),
    // What has no JSON form becomes null inside an array.
    Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? undefined : i % 3 === 1 ? () => i : item(i))),
    Array.from({ length: 40 }, (_, i) => ({ toJSON: () => `as json ${i}` })),
    { statuses: Array.from({ length: 100 }, (_, i) => item(i)) },
    'a string',
    null,
  ];
  for (const v of values) assert.equal(answer(v).text, JSON.stringify(v));
});

test('setJsonBody grows past the pooled buffer for an answer over 2 MB, and stays exact', () => {
  const big = Array.from({ length: 3000 }, (_, i) => ({ i, body: `ü${'x'.repeat(1000)}🎉` }));
  const { text } = answer(big);
  assert.ok(Buffer.byteLength(text) > 2 * 1024 * 1024);
  assert.equal(text, JSON.stringify(big));
  // Items whose multi-byte characters only fit by their exact length, near the buffer's end.
  const wide = Array.from({ length: 700 }, (_, i) => ({ i, body: '€'.repeat(1000) }));
  assert.equal(answer(wide).text, JSON.stringify(wide));
});

test('a pooled answer is not handed to another answer before its response is done', () => {
  const first = Array.from({ length: 100 }, (_, i) => ({ first: i, pad: 'a'.repeat(400) }));
  const second = Array.from({ length: 100 }, (_, i) => ({ second: i, pad: 'b'.repeat(400) }));
  const res1 = new EventEmitter();
  const ctx1 = { res: res1 } as unknown as Context & { body: Buffer };
  setJsonBody(ctx1, first);
  const ctx2 = { res: new EventEmitter() } as unknown as Context & { body: Buffer };
  setJsonBody(ctx2, second);
  assert.equal(ctx1.body.toString(), JSON.stringify(first), 'still intact while its response runs');
  res1.emit('finish');
  res1.emit('close');
  const ctx3 = { res: new EventEmitter() } as unknown as Context & { body: Buffer };
  setJsonBody(ctx3, second);
  assert.equal(ctx3.body.toString(), JSON.stringify(second));
});

test('setTextPiecesBody writes the pieces one after another, past the pooled buffer too', () => {
  const pieces = ['<?xml version="1.0"?>\n<statuses>\n', ...Array.from({ length: 400 }, (_, i) => `  <status>${'€'.repeat(i * 5)} שלום 🎉</status>\n`), '</statuses>\n'];
  for (const list of [pieces, [pieces.join('')], [...pieces, 'x'.repeat(2_500_000)]]) {
    const ctx = { res: new EventEmitter() } as unknown as Context & { body: Buffer };
    setTextPiecesBody(ctx, list);
    assert.equal(ctx.body.toString('utf8'), list.join(''));
  }
});

test('setJsonBody with shared keys writes each shared object from one text, and the answer is the same', () => {
  const alice = { id: 1, name: 'Alice "A" 🎉', pics: ['x', 'y'] };
  const bob = { id: 2, name: 'Bob' };
  const statuses = Array.from({ length: 40 }, (_, i) => ({ id: i, text: `post ${i} ü`, user: i % 3 ? alice : bob, owner: alice, other: { n: i } }));
  const values: unknown[] = [
    statuses,
    statuses.slice(0, 2),
    // Items without the keys, with them undefined or null, non-objects, and items that are only shared objects.
    [{ id: 1 }, { user: undefined }, { user: null, id: 2 }, 3, 'text', null, [alice], { user: alice }, { toJSON: () => 'j', user: alice }],
    [{ user: { toJSON: () => 'as json' } }, { user: alice }],
    // Data that looks like a member: in strings, in keys, nested under the same key, and numbers near the marks.
    Array.from({ length: 5 }, (_, i) => ({ text: `"user":${2 ** 52 + i},}`, '"user":1': alice, nested: { user: bob, n: 2 ** 52 }, user: alice, big: 2 ** 53 + i, owner: bob })),
  ];
  for (const v of values) {
    const res = new EventEmitter();
    const ctx = { res } as unknown as Context & { body: Buffer };
    setJsonBody(ctx, v, { shared: ['user', 'owner'] });
    assert.equal(ctx.body.toString('utf8'), JSON.stringify(v));
  }
  // The items are as they were.
  assert.equal(statuses[5]!.user, alice);
  assert.deepEqual(Object.keys(statuses[5]!), ['id', 'text', 'user', 'owner', 'other']);
});
