import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { apiCall, connect, postStatus } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';

let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob'] });
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
  seen: boolean | number;
  iid: number | null;
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
