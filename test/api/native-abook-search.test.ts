import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { assertError, call } from '../helpers/native.js';
import { seedConnections, seededHash, seededName } from '../helpers/many-connections.js';

// A channel with hundreds of connections finds one by name, a page at a time, and names those a
// post went to by hash, without reading them all; nobody else finds them.
let t: TestHub;
const COUNT = 300;

before(async () => {
  t = await startHub({ channels: ['alice', 'mallory'] });
  seedConnections(t.hub, t.channels.alice!, COUNT, (i) => (i === 271 ? 'Zoë Quillfeather' : i === 5 ? '100%_sure\\' : seededName(i)));
});
after(() => t.stop());

type Row = { abook_id: string; xchan_name: string; xchan_hash: string; abook_channel: string };

test('abook?q finds connections whose name or address contains it, in any case, a page at a time', async () => {
  const byName = await call(t, 'alice', 'abook?q=quillFEATHER');
  assert.equal(byName.status, 200);
  assert.deepEqual(byName.json.map((r: Row) => r.xchan_name), ['Zoë Quillfeather']);
  const byAddress = await call(t, 'alice', 'abook?q=p271@elsewhere');
  assert.deepEqual(byAddress.json.map((r: Row) => r.xchan_name), ['Zoë Quillfeather']);

  // "Person 01" names Person 0100 … 0199: two pages of 60 and the rest.
  const page1 = await call(t, 'alice', 'abook?q=Person%2001&start=0&records=60');
  const page2 = await call(t, 'alice', 'abook?q=Person%2001&start=60&records=60');
  assert.equal(page1.json.length, 60);
  assert.equal(page2.json.length, 40);
  const names = [...page1.json, ...page2.json].map((r: Row) => r.xchan_name);
  assert.deepEqual(names, Array.from({ length: 100 }, (_, i) => seededName(100 + i)));
  assert.deepEqual((await call(t, 'alice', 'abook?q=nobody-by-this-name')).json, []);
});

test('abook?q takes % _ and \\ as themselves, not as patterns', async () => {
  assert.deepEqual((await call(t, 'alice', `abook?q=${encodeURIComponent('100%_s')}`)).json.map((r: Row) => r.xchan_name), ['100%_sure\\']);
  assert.deepEqual((await call(t, 'alice', `abook?q=${encodeURIComponent('%')}`)).json.map((r: Row) => r.xchan_name), ['100%_sure\\']);
  assert.deepEqual((await call(t, 'alice', `abook?q=${encodeURIComponent('_')}`)).json.map((r: Row) => r.xchan_name), ['100%_sure\\']);
  assert.deepEqual((await call(t, 'alice', `abook?q=${encodeURIComponent('\\')}`)).json.map((r: Row) => r.xchan_name), ['100%_sure\\']);
});

test('abook?xchan names connections by hash: those the channel has, and no others', async () => {
  const wanted = [seededHash(3), seededHash(250), 'https://elsewhere.example/users/stranger'];
  const r = await call(t, 'alice', `abook?${wanted.map((h) => `xchan[]=${encodeURIComponent(h)}`).join('&')}`);
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.map((x: Row) => x.xchan_hash), [seededHash(3), seededHash(250)]);
  const tooMany = Array.from({ length: 101 }, (_, i) => `xchan[]=${encodeURIComponent(seededHash(i))}`).join('&');
  assertError(await call(t, 'alice', `abook?${tooMany}`), 400, /xchan/);
  assertError(await call(t, 'alice', `abook?q=${'x'.repeat(201)}`), 400, /q/);
});

test('another channel never finds this channel’s connections by name or hash; nobody anonymous does', async () => {
  const own = await call(t, 'mallory', 'abook?q=Quillfeather');
  assert.equal(own.status, 200);
  assert.deepEqual(own.json, []);
  const byHash = await call(t, 'mallory', `abook?xchan=${encodeURIComponent(seededHash(271))}`);
  assert.equal(byHash.status, 200);
  assert.deepEqual(byHash.json, []);
  const everyone = await call(t, 'mallory', 'abook?q=e');
  assert.ok(everyone.json.every((r: Row) => r.abook_channel === String(t.channels.mallory!.channel_id)), JSON.stringify(everyone.json));
  assertError(await call(t, undefined, 'abook?q=Quillfeather'), 401);
  assertError(await call(t, undefined, `abook?xchan=${encodeURIComponent(seededHash(271))}`), 401);
});
