import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startHub, type TestHub } from '../helpers/hub.js';
import { openDatabase } from '../../server/db/open.js';
import { markAllNotificationsSeen } from '../../server/store/notify.js';

let t: TestHub;

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
  for (const [a, b] of [['alice', 'bob'], ['bob', 'alice']] as const) {
    const res = await t.request('/api/friendships/create.json', { as: a, method: 'POST', body: new URLSearchParams({ screen_name: b }) });
    assert.equal(res.status, 200);
  }
});
after(() => t.stop());

async function text(path: string, as: string): Promise<string> {
  const res = await t.request(path, { as });
  assert.equal(res.status, 200);
  return res.text();
}

async function post(as: string, status: string): Promise<void> {
  const res = await t.request('/api/statuses/update.json', { as, method: 'POST', body: new URLSearchParams({ status }) });
  assert.equal(res.status, 200);
}

test('a repeated read is answered the same, and any write shows at once', async () => {
  await post('alice', 'first post');
  const a1 = await text('/api/statuses/home_timeline.json', 'alice');
  assert.equal(await text('/api/statuses/home_timeline.json', 'alice'), a1);
  assert.equal(await text('/api/statuses/home_timeline.json', 'alice'), a1);
  await post('bob', 'bob answers @alice');
  const a2 = await text('/api/statuses/home_timeline.json', 'alice');
  assert.notEqual(a2, a1);
  assert.equal(JSON.parse(a2)[0].text, 'bob answers @alice');
});

test('answers are kept per caller and per URL', async () => {
  const mine = JSON.parse(await text('/api/statuses/user_timeline.json', 'alice'));
  const bobs = JSON.parse(await text('/api/statuses/user_timeline.json', 'bob'));
  assert.ok(mine.every((s: { user: { screen_name: string } }) => s.user.screen_name === 'alice'));
  assert.ok(bobs.every((s: { user: { screen_name: string } }) => s.user.screen_name === 'bob'));
  const xml = await text('/api/statuses/user_timeline.xml', 'alice');
  assert.match(xml, /^<\?xml/);
  const one = JSON.parse(await text('/api/statuses/home_timeline.json?count=1', 'alice'));
  assert.equal(one.length, 1);
});

test('a write through another connection (the CLI, say) retires cached answers too', async () => {
  // Asked twice, so the answer is kept (an answer is only kept for a URL asked for before).
  await text('/api/ext/notifications.json', 'alice');
  const before = JSON.parse(await text('/api/ext/notifications.json', 'alice')) as { seen: boolean }[];
  assert.ok(before.some((n) => !n.seen), 'alice has an unseen notification');
  const other = openDatabase(join(t.dataDir, 'hearth.db'));
  try {
    markAllNotificationsSeen(other, t.channels.alice!.channel_id);
  } finally {
    other.close();
  }
  const after = JSON.parse(await text('/api/ext/notifications.json', 'alice')) as { seen: boolean }[];
  assert.ok(after.every((n) => n.seen));
});

test('a kept large answer stays whole while later large answers are encoded into reused buffers', async () => {
  for (let i = 0; i < 30; i++) await post('alice', `long post ${i} ${'lorem ipsum dolor sit amet '.repeat(60)}`);
  const page = '/api/statuses/home_timeline.json?count=30';
  const first = await text(page, 'alice');
  assert.ok(first.length > 64 * 1024, 'large enough to be encoded into a reused buffer');
  assert.equal(await text(page, 'alice'), first, 'the second request is kept');
  // Other large answers, built anew each time, take the reused buffers.
  for (let i = 0; i < 6; i++) await text(`/api/statuses/home_timeline.xml?count=${25 + i}`, 'alice');
  assert.equal(await text(page, 'alice'), first, 'the kept answer is unchanged');
});

test('channel/stream: a repeated read is answered the same, and a post through it shows at once', async () => {
  const path = '/api/z/1.0/channel/stream';
  const first = await text(path, 'alice');
  assert.equal(await text(path, 'alice'), first);
  const res = await t.request(path, { as: 'alice', method: 'POST', body: new URLSearchParams({ body: 'posted through channel/stream' }) });
  assert.equal(res.status, 200);
  const after = JSON.parse(await text(path, 'alice')) as { body: string }[];
  assert.ok(after.some((i) => i.body === 'posted through channel/stream'));
  assert.notEqual(JSON.stringify(after), first);
});
