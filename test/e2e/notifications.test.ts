import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { apiCall, connect, postStatus } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';

let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob', 'carol', 'dave', 'erin'] });
  await connect(hub, 'alice', 'bob');
  await connect(hub, 'bob', 'alice');
  // Bob's connecting notified Alice; start from a quiet bell.
  const notes = await apiCall<Note[] | false>(hub, 'alice', '/api/ext/notifications', {}, 'GET');
  for (const n of notes || []) await apiCall(hub, 'alice', '/api/ext/notifications/seen', { id: String(n.id) });
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

interface Note {
  id: number;
  type: number;
  seen: boolean | number;
  iid: number | null;
  post_id?: number | null;
}

test('a comment by another channel raises the bell without a reload; opening it marks it seen', async () => {
  const { page } = ui;
  const post = await postStatus(hub, 'alice', 'Who wants tea?');
  await page.goto('/');
  await page.getByText('Who wants tea?').waitFor();
  const bell = page.getByRole('link', { name: /^Notifications/ });
  await page.getByRole('link', { name: 'Notifications: none unseen' }).waitFor();

  // Bob comments through the microblog API, as any client would.
  await postStatus(hub, 'bob', 'Me please, with milk', { in_reply_to_status_id: String(post.id) });

  // The bell polls: the count appears on the page that is already open.
  await page.getByRole('link', { name: 'Notifications: 1 unseen' }).waitFor();
  assert.equal(await page.getByTestId('bell-count').textContent(), '1');
  await ui.screenshot('bell');

  await bell.click();
  await page.getByRole('heading', { name: 'Notifications' }).waitFor();
  const item = page.getByRole('list', { name: 'Notifications' }).getByRole('button').filter({ hasText: 'Bob' }).first();
  await item.getByText('New').waitFor();
  assert.equal(await item.getAttribute('data-seen'), 'false');
  await ui.screenshot('notifications');

  await item.click();
  await page.waitForURL(/\/item\/\d+$/);
  await page.getByText('Me please, with milk').waitFor();
  await page.getByText('Who wants tea?').waitFor();
  await page.getByRole('link', { name: 'Notifications: none unseen' }).waitFor();
  await ui.screenshot('conversation');

  const notes = await apiCall<Note[] | false>(hub, 'alice', '/api/ext/notifications', {}, 'GET');
  assert.ok(Array.isArray(notes) && notes.length > 0);
  assert.ok(
    notes.every((n) => n.seen === true || n.seen === 1),
    'every notification is seen',
  );
});

test('mark all seen clears every unseen notification', async () => {
  const { page } = ui;
  const post = await postStatus(hub, 'alice', 'Second question');
  await postStatus(hub, 'bob', 'First answer', { in_reply_to_status_id: String(post.id) });
  await postStatus(hub, 'bob', 'Second answer', { in_reply_to_status_id: String(post.id) });
  await page.goto('/notifications');
  await page.getByText('2 unseen').waitFor();
  await page.getByRole('button', { name: 'Mark all seen' }).click();
  await page.getByText('All caught up').waitFor();
  const notes = await apiCall<Note[]>(hub, 'alice', '/api/ext/notifications', {}, 'GET');
  assert.ok(notes.every((n) => n.seen === true || n.seen === 1));
});

test('notifications say which post they are about, and likes of one post are one entry', async () => {
  const { page } = ui;
  await apiCall(hub, 'alice', '/api/ext/notifications/seen', { id: 'all' });
  const bread = await postStatus(hub, 'alice', 'Bread from the new oven\nIt took all day, but it was worth it.');
  const loaf = await postStatus(hub, 'alice', 'A second loaf for the neighbours');
  for (const nick of ['bob', 'carol', 'dave', 'erin']) await apiCall(hub, nick, '/api/ext/activity/like', { id: String(bread.id) });
  await apiCall(hub, 'bob', '/api/ext/activity/like', { id: String(loaf.id) });
  await postStatus(hub, 'bob', 'Can I have the recipe?', { in_reply_to_status_id: String(bread.id) });

  await page.goto('/notifications');
  const list = page.getByRole('list', { name: 'Notifications' });
  const likes = list.getByRole('listitem').filter({ hasText: 'Erin and 3 others like your post' });
  await likes.getByText('Bread from the new oven', { exact: true }).waitFor();
  const single = list.getByRole('listitem').filter({ hasText: 'Bob likes your post' });
  await single.getByText('A second loaf for the neighbours', { exact: true }).waitFor();
  const comment = list.getByRole('listitem').filter({ hasText: 'Bob commented on your post: Can I have the recipe?' });
  await comment.getByText('Bread from the new oven', { exact: true }).waitFor();
  assert.equal(await list.getByRole('listitem').filter({ hasText: /^(Bob|Carol|Dave) likes your post/ }).filter({ hasText: 'Bread from the new oven' }).count(), 0, 'the likes of one post are not repeated');
  await page.getByText('6 unseen').waitFor();
  await ui.screenshots('notifications-grouped', { fullPage: false });

  // Opening the entry opens the post and counts all four likes as seen.
  await likes.getByRole('button').first().click();
  await page.waitForURL(`**/item/${bread.id}`);
  await page.getByText('It took all day, but it was worth it.').waitFor();
  const notes = await apiCall<Note[]>(hub, 'alice', '/api/ext/notifications', {}, 'GET');
  const breadLikes = notes.filter((n) => n.type === 1024 && n.iid !== null && n.post_id === bread.id);
  assert.equal(breadLikes.length, 4);
  assert.ok(breadLikes.every((n) => n.seen === true || n.seen === 1), 'every like of the post is seen');
});
