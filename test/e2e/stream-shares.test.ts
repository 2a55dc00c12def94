import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { startHub, type TestHub } from '../helpers/hub.js';
import { apiCall, connectMutually, connectionId, createGroup, postStatus } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';

// The owner's UI issue, item 1: a shared post shows once — in the stream, in its filtered views and
// in search — with who shared it above it, not once as the share and once more as the original.

interface Status {
  id: number;
  retweeted?: boolean;
  retweet_count?: number;
}

const TEXT = 'The lighthouse at dawn, all pink and gold';

let hub: TestHub;
let ui: Ui;
let original: Status;

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob', 'carol'] });
  await connectMutually(hub, 'alice', ['bob', 'carol']);
  await createGroup(hub, 'alice', 'Family', ['bob', 'carol']);
  original = await postStatus(hub, 'bob', `${TEXT} #sea`);
  await postStatus(hub, 'carol', 'Carol: off to the market');
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

/** The cards holding the shared post, once the list has loaded. */
async function cardsOfThePost(region: string): Promise<Locator> {
  const list = ui.page.getByRole('region', { name: region });
  await list.and(ui.page.locator('[aria-busy="false"]')).waitFor();
  await list.getByText('Carol: off to the market').or(list.getByText(TEXT)).first().waitFor();
  return list.getByRole('article').filter({ hasText: TEXT });
}

test('a post shared by the owner and by a friend shows once, saying who shared it, in the stream, its filters and search', async () => {
  const { page } = ui;
  await page.goto('/');
  // Alice shares Bob's post from her stream; Carol shares it from her phone.
  const card = page.getByRole('article', { name: /Post by Bob/ }).filter({ hasText: TEXT });
  await card.getByRole('button', { name: /^Share/ }).click();
  await card.getByRole('button', { name: /^Shared/ }).waitFor();
  await apiCall(hub, 'carol', `/api/statuses/retweet/${original.id}`);

  await page.reload();
  let cards = await cardsOfThePost('Stream');
  assert.equal(await cards.count(), 1, 'the stream shows the post once');
  await cards.getByText('You and Carol shared').waitFor();
  assert.match((await cards.getAttribute('aria-label')) ?? '', /^Post by Bob, shared by you and Carol$/);
  assert.match(await cards.getByRole('button', { name: /^Shared/ }).innerText(), /2/, 'both shares are counted');
  await ui.screenshots('stream-share-once');

  await page.goto(`/stream?connection=${await connectionId(hub, 'alice', 'bob')}`);
  cards = await cardsOfThePost('Stream');
  assert.equal(await cards.count(), 1, 'filtered by Bob, once');

  const groupSelect = page.getByRole('form', { name: 'Filter the stream' }).getByLabel('Group');
  await groupSelect.selectOption({ label: 'Family' });
  await page.waitForURL(/group=/);
  cards = await cardsOfThePost('Stream');
  assert.equal(await cards.count(), 1, 'filtered by the group Family, once');

  await page.goto(`/search?q=${encodeURIComponent('lighthouse')}`);
  cards = await cardsOfThePost('Results for lighthouse');
  assert.equal(await cards.count(), 1, 'search finds it once');
  await cards.getByText('You and Carol shared').waitFor();
  await ui.screenshots('search-share-once');

  await page.goto('/search?tag=sea');
  const tagged = page.getByRole('region', { name: 'Posts tagged #sea' });
  await tagged.and(page.locator('[aria-busy="false"]')).waitFor();
  cards = tagged.getByRole('article').filter({ hasText: TEXT });
  assert.equal(await cards.count(), 1, 'the tag page shows it once');
});

test('undoing the owner’s share keeps the post in place, shared by the friend only', async () => {
  const { page } = ui;
  await page.goto('/');
  const cards = await cardsOfThePost('Stream');
  await cards.getByRole('button', { name: /^Shared/ }).click();
  await cards.getByText('Carol shared').waitFor();
  assert.equal(await cards.getByText('You and Carol shared').count(), 0);
  assert.equal(await cards.count(), 1);
  const after = await apiCall<Status>(hub, 'alice', '/api/statuses/show.json', { id: String(original.id) }, 'GET');
  assert.equal(after.retweeted, false);
  assert.equal(after.retweet_count, 1);
  await page.reload();
  const again = await cardsOfThePost('Stream');
  assert.equal(await again.count(), 1);
  await again.getByText('Carol shared').waitFor();
});
