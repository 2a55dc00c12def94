import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startHub, type TestHub } from '../helpers/hub.js';
import { assertError, call, NATIVE, post } from '../helpers/native.js';
import { form } from '../helpers/media.js';
import { connect } from '../../server/services/connections.js';
import { setActivity } from '../../server/services/items.js';
import { VERB } from '../../server/services/verbs.js';

let t: TestHub;
let top: Record<string, any>;
let reply: Record<string, any>;

before(async () => {
  t = await startHub({ channels: ['alice', 'bob', 'carol'] });
  connect(t.hub, t.channels.alice!, t.channels.bob!.channel_hash);
  connect(t.hub, t.channels.bob!, t.channels.alice!.channel_hash);
  const res = await t.request(`${NATIVE}/item/update`, {
    as: 'alice', method: 'POST',
    body: form({ body: 'a post with #tags, @bob and a file', category: 'News' }, { media: { data: randomBytes(64), name: 'notes.txt', type: 'text/plain' } }),
  });
  top = (await res.json()).item;
  reply = await post(t, 'bob', { body: 'a reply', parent: top.id });
  setActivity(t.hub, t.channels.bob!, Number(top.id), VERB.LIKE, true);
  await post(t, 'alice', { body: 'another thread' });
});
after(() => t.stop());

test('item/full returns the whole conversation in the backup form: replies, activities, terms, attachments', async () => {
  const r = await call(t, 'alice', `item/full?item_id=${top.id}`);
  assert.equal(r.status, 200);
  const items = r.json.item as Record<string, any>[];
  assert.deepEqual(items.map((i) => i.verb), [VERB.POST, VERB.POST, VERB.LIKE]);
  const [first, second, like] = items;
  assert.equal(first!.id, top.id);
  assert.equal(first!.message_id, top.mid);
  assert.equal(second!.body, 'a reply');
  assert.equal(second!.message_top, top.mid);
  assert.equal(like!.author.address, `bob@${new URL(t.url).host}`);
  assert.equal(like!.message_parent, top.mid);
  const tags = first!.tags.map((x: { type: string; tag: string }) => `${x.type}:${x.tag}`).sort();
  assert.deepEqual(tags, ['category:News', 'hashtag:tags', 'mention:bob']);
  assert.equal(first!.tags.find((x: { type: string }) => x.type === 'mention').url, `${t.url}/channel/bob`, 'item/full keeps raw mention URLs');
  assert.equal(first!.attach.length, 1);
  assert.equal(first!.attach[0].length, 64);
  assert.match(first!.attach[0].href, new RegExp(`^${t.url}/attach/[0-9a-f]{64}$`));
  assert.equal(first!.item_thread_top, '1');
});

test('item/full finds the conversation from any of its items, by id or mid', async () => {
  const byReply = await call(t, 'alice', `item/full?item_id=${reply.id}`);
  const byMid = await call(t, 'alice', `item/full?mid=${encodeURIComponent(top.mid)}`);
  const byTop = await call(t, 'alice', `item/full?item_id=${top.id}`);
  assert.deepEqual(byReply.json, byTop.json);
  assert.deepEqual(byMid.json, byTop.json);
});

test('item/full: missing or malformed id 400; unknown or someone else\'s item 404', async () => {
  assertError(await call(t, 'alice', 'item/full'), 400, /item_id/);
  assertError(await call(t, 'alice', 'item/full?item_id=abc'), 400, /item_id/);
  assertError(await call(t, 'alice', 'item/full?item_id=424242'), 404);
  assertError(await call(t, 'alice', 'item/full?mid=nothing@nowhere'), 404);
  assertError(await call(t, 'carol', `item/full?item_id=${top.id}`), 404);
  assertError(await call(t, undefined, `item/full?item_id=${top.id}`), 401);
});

test("item/full gives a channel its own comment in another channel's thread, alone, while it may still see it", async () => {
  const own = await call(t, 'bob', `item/full?item_id=${reply.id}`);
  assert.equal(own.status, 200);
  const items = own.json.item as Record<string, any>[];
  assert.deepEqual(items.map((i) => [i.message_id, i.body]), [[reply.mid, 'a reply']], "only bob's comment, with its source");
  const byMid = await call(t, 'bob', `item/full?mid=${encodeURIComponent(reply.mid)}`);
  assert.deepEqual((byMid.json.item as Record<string, any>[]).map((i) => i.message_id), [reply.mid]);
  // Not the thread it sits in, nor anybody else's comment.
  assertError(await call(t, 'bob', `item/full?item_id=${top.id}`), 404);
  assertError(await call(t, 'carol', `item/full?item_id=${reply.id}`), 404);
  assertError(await call(t, undefined, `item/full?item_id=${reply.id}`), 401);

  // Once alice narrows the thread to herself, bob's comment is out of his sight as well.
  const narrowed = await t.request(`${NATIVE}/item/update`, {
    as: 'alice', method: 'POST',
    body: new URLSearchParams({ post_id: String(top.id), body: 'a post with #tags, @bob and a file', 'contact_allow[]': t.channels.alice!.channel_hash }),
  });
  assert.equal(narrowed.status, 200, await narrowed.text());
  assertError(await call(t, 'bob', `item/full?item_id=${reply.id}`), 404);
});
