import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { call, ids, ok } from '../helpers/compat.js';
import { form, makeImage } from '../helpers/media.js';

// A photo's item is hidden and written by its uploader: a channel's own timeline pages past an
// album uploaded between two posts and never lists the photos' items (migration 046 indexes only
// the items a timeline can list).
let t: TestHub;
const s: Record<string, number> = {};

async function post(status: string): Promise<number> {
  return (await ok(t, '/api/statuses/update.json', { as: 'alice', form: { status } })).id;
}

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
  await ok(t, '/api/friendships/create.json', { as: 'bob', form: { screen_name: 'alice' } });
  s.before = await post('before the album');
  const jpeg = await makeImage(320, 240);
  for (let i = 0; i < 3; i++) {
    const a = await call(t, '/api/ext/photo/create.json', { as: 'alice', method: 'POST', body: form({ album: 'Holidays' }, { media: { data: jpeg, name: `p${i}.jpg`, type: 'image/jpeg' } }) });
    assert.equal(a.status, 200, a.text.slice(0, 300));
  }
  s.after = await post('after the album');
});
after(() => t.stop());

test('user_timeline lists the posts around an album, not the photos, for the owner and for others', async () => {
  assert.deepEqual(ids(await ok(t, '/api/statuses/user_timeline.json', { as: 'alice' })), [s.after, s.before]);
  assert.deepEqual(ids(await ok(t, '/api/statuses/user_timeline.json?screen_name=alice', { as: 'bob' })), [s.after, s.before]);
});

test('user_timeline pages past the album: count=1 then max_id below the newest post', async () => {
  assert.deepEqual(ids(await ok(t, '/api/statuses/user_timeline.json?count=1', { as: 'alice' })), [s.after]);
  assert.deepEqual(ids(await ok(t, `/api/statuses/user_timeline.json?count=1&max_id=${s.after! - 1}`, { as: 'alice' })), [s.before]);
  assert.deepEqual(ids(await ok(t, `/api/statuses/user_timeline.json?since_id=${s.before}`, { as: 'alice' })), [s.after]);
});
