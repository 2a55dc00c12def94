import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { apiCall, connectMutually, postStatus } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';

// The owner's UI issue, item 8: a live stream. Someone else's new post shows as a "new posts" bar
// while the owner reads, and comes on top when it is clicked; likes and comments change the
// threads shown at once; the bell and the envelope follow the hub's stream instead of polling.

let hub: TestHub;
let ui: Ui;
let alicesPost: { id: number };

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob'] });
  await connectMutually(hub, 'alice', ['bob']);
  await postStatus(hub, 'bob', 'Bob: the allotment needs water');
  alicesPost = await postStatus(hub, 'alice', 'Alice: who has a spare ladder?');
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

const stream = () => ui.page.getByRole('region', { name: 'Stream' });

test('a post made while the owner reads shows as a "new posts" bar, and on top once clicked', async () => {
  const { page } = ui;
  await page.goto('/');
  await stream().getByText('Alice: who has a spare ladder?').waitFor();
  const bar = page.getByRole('button', { name: /new posts?$/ });
  assert.equal(await bar.count(), 0);

  await postStatus(hub, 'bob', 'Bob: fresh bread at the bakery');
  await page.getByRole('button', { name: 'Show 1 new post' }).waitFor();
  assert.equal(await stream().getByText('Bob: fresh bread at the bakery').count(), 0, 'nothing moves under the reader');
  await postStatus(hub, 'bob', 'Bob: and croissants');
  await page.getByRole('button', { name: 'Show 2 new posts' }).waitFor();
  await ui.screenshots('stream-live-new-posts', { fullPage: false });

  await page.getByRole('button', { name: 'Show 2 new posts' }).click();
  await stream().getByText('Bob: and croissants').waitFor();
  const order = await stream().getByRole('article').evaluateAll((cards) => cards.map((c) => c.querySelector('.post-content')?.textContent?.trim()));
  assert.deepEqual(order.slice(0, 4), ['Bob: and croissants', 'Bob: fresh bread at the bakery', 'Alice: who has a spare ladder?', 'Bob: the allotment needs water']);
  await bar.waitFor({ state: 'detached' });

  // The owner's own post, written elsewhere, waits for no bar; a deleted new post is no longer counted.
  await postStatus(hub, 'alice', 'Alice: posted from my phone');
  const gone = await postStatus(hub, 'bob', 'Bob: oops, wrong channel');
  await page.getByRole('button', { name: 'Show 1 new post' }).waitFor();
  await apiCall(hub, 'bob', '/api/statuses/destroy', { id: String(gone.id) });
  await bar.waitFor({ state: 'detached' });
});

test('likes and comments show on the posts at once', async () => {
  const { page } = ui;
  await page.goto('/');
  const card = stream().getByRole('article').filter({ hasText: 'Alice: who has a spare ladder?' });
  await card.waitFor();
  await apiCall(hub, 'bob', '/api/ext/activity/like', { id: String(alicesPost.id) });
  await card.getByRole('button', { name: /^Like/ }).filter({ hasText: '1' }).waitFor();
  await card.getByRole('link', { name: 'Bob' }).last().waitFor();

  await postStatus(hub, 'bob', 'I have one, come by', { in_reply_to_status_id: String(alicesPost.id) });
  await card.getByRole('listitem', { name: 'Comment by Bob' }).getByText('I have one, come by').waitFor();

  // A comment on someone else's post the owner follows, too.
  const bobs = stream().getByRole('article').filter({ hasText: 'Bob: the allotment needs water' });
  const bobsPost = (await apiCall<Array<{ id: number; text: string }>>(hub, 'bob', '/api/statuses/user_timeline', {}, 'GET')).find((s) => s.text === 'Bob: the allotment needs water')!;
  await postStatus(hub, 'bob', 'Done, the beans are happy', { in_reply_to_status_id: String(bobsPost.id) });
  await bobs.getByText('Done, the beans are happy').waitFor();
  await ui.screenshots('stream-live-counts');
});

test('the bell and the envelope follow the hub’s stream, without asking every few seconds', async () => {
  const { page } = ui;
  const asked: string[] = [];
  page.on('request', (r) => {
    if (/\/api\/ext\/notifications|\/api\/direct_messages/.test(r.url())) asked.push(r.url());
  });
  await page.clock.install();
  await page.goto('/');
  await stream().getByText('Alice: who has a spare ladder?').waitFor();
  await page.getByRole('link', { name: /^Notifications:/ }).waitFor();
  await page.waitForLoadState('networkidle');
  const atStart = asked.length;
  // Two minutes pass: nothing is asked.
  await page.clock.fastForward('02:00');
  await page.waitForTimeout(300);
  assert.equal(asked.length, atStart, `no polling: ${asked.slice(atStart).join(', ')}`);

  const unseen = async () => Number(/(\d+) unseen/.exec((await page.getByRole('link', { name: /^Notifications:/ }).getAttribute('aria-label')) ?? '')?.[1] ?? 0);
  const before = await unseen();
  await postStatus(hub, 'bob', 'Hey @alice, the ladder is in the shed');
  await page.getByRole('link', { name: `Notifications: ${before + 1} unseen` }).waitFor();

  await apiCall(hub, 'bob', '/api/direct_messages/new.json', { screen_name: 'alice', text: 'Lunch on Sunday?' });
  await page.getByRole('link', { name: 'Messages: 1 unread' }).waitFor();
  await ui.screenshots('stream-live-bell', { fullPage: false });
});
