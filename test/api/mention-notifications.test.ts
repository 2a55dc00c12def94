import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { connect, postStatus } from '../helpers/ui-fixtures.js';

let t: TestHub;

before(async () => {
  t = await startHub({ channels: ['alice', 'bob', 'carol'] });
  for (const [a, b] of [['alice', 'bob'], ['bob', 'alice'], ['alice', 'carol'], ['carol', 'alice'], ['bob', 'carol'], ['carol', 'bob']] as const) await connect(t, a, b);
});

after(async () => {
  await t?.stop();
});

async function notificationsAbout(as: string, itemId: number) {
  const res = await t.request('/api/ext/notifications.json', { as });
  const all = (await res.json()) as { iid: number | null; type: number; msg_plain: string }[] | false;
  return (all || []).filter((n) => n.iid === itemId);
}

test('a comment that mentions the author of the post raises one notification, not two', async () => {
  const post = await postStatus(t, 'alice', 'Who is coming on Sunday?');
  const comment = await postStatus(t, 'bob', '@alice I am!', { in_reply_to_status_id: String(post.id) });
  const notes = await notificationsAbout('alice', comment.id);
  assert.equal(notes.length, 1, JSON.stringify(notes));
  assert.match(notes[0]!.msg_plain, /Bob commented on your post/);
});

test('others mentioned in a comment are still told, once', async () => {
  const post = await postStatus(t, 'alice', 'Plans for Monday');
  const comment = await postStatus(t, 'carol', '@bob and @alice, shall we?', { in_reply_to_status_id: String(post.id) });
  assert.equal((await notificationsAbout('alice', comment.id)).length, 1);
  const bobs = await notificationsAbout('bob', comment.id);
  assert.equal(bobs.length, 1);
  assert.match(bobs[0]!.msg_plain, /Carol mentioned you/);
});
