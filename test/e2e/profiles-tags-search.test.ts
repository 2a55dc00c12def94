import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { apiCall, connect, postStatus } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';

// Issue 19, missing features: a channel's page linked from author names and @mentions; #tags as links
// to a tag page; a search box with a results page. Carol's private post to Bob never shows to Alice.

let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob', 'carol'] });
  for (const other of ['bob', 'carol']) {
    await connect(hub, 'alice', other);
    await connect(hub, other, 'alice');
  }
  await connect(hub, 'bob', 'carol');
  await connect(hub, 'carol', 'bob');
  await apiCall(hub, 'bob', '/api/account/update_profile', { description: 'Bakes bread on Sundays.' });
  await postStatus(hub, 'bob', 'Sourdough day again #baking with @carol');
  await postStatus(hub, 'bob', 'Rye needs patience. Reference [1] stays text, and so does #1');
  await postStatus(hub, 'carol', 'Climbing at dawn #outdoors');
  await apiCall(hub, 'carol', '/api/z/1.0/item/update', { body: 'Secret #baking tip for Bob only', 'contact_allow[]': hub.channels.bob!.channel_hash });
  await postStatus(hub, 'alice', 'My first loaf #baking');
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

test("an author's name opens the channel's page: photo, name, about, and its posts", async () => {
  const { page } = ui;
  await page.goto('/');
  const post = page.getByRole('article').filter({ hasText: 'Sourdough day again' });
  await post.getByRole('link', { name: 'Bob', exact: true }).click();
  await page.waitForURL('**/channel/bob');
  await page.getByRole('heading', { name: 'Bob', level: 1 }).waitFor();
  await page.getByText('Bakes bread on Sundays.').waitFor();
  const posts = page.getByRole('region', { name: 'Posts by Bob' });
  await posts.getByText('Rye needs patience').waitFor();
  await posts.getByText('Sourdough day again').waitFor();
  await page.getByText('These are all the posts of Bob that you can see.').waitFor();
  assert.equal(await posts.getByRole('article').count(), 2, "only Bob's posts");
  assert.equal(await page.title(), 'bob · Hearth');
  await ui.screenshots('profile-page');
});

test('#tags and @mentions in a post are links; [1] and #1 stay text', async () => {
  const { page } = ui;
  await page.goto('/');
  const rye = page.getByRole('article').filter({ hasText: 'Rye needs patience' });
  await rye.getByText('Reference [1] stays text, and so does #1').waitFor();
  assert.equal(await rye.locator('.post-content a').count(), 0, 'no link made of [1] or #1');

  const sourdough = page.getByRole('article').filter({ hasText: 'Sourdough day again' });
  await sourdough.getByRole('link', { name: '@carol' }).click();
  await page.waitForURL('**/channel/carol');
  await page.getByRole('region', { name: 'Posts by Carol' }).getByText('Climbing at dawn').waitFor();
  assert.equal(await page.getByText('Secret #baking tip').count(), 0, "Carol's post to Bob is not shown to Alice");

  await page.goBack();
  await page.getByRole('article').filter({ hasText: 'Sourdough day again' }).getByRole('link', { name: '#baking' }).click();
  await page.waitForURL('**/tags/baking');
  await page.getByRole('heading', { name: '#baking', level: 1 }).waitFor();
  const tagged = page.getByRole('region', { name: 'Posts tagged #baking' });
  await tagged.getByText('My first loaf').waitFor();
  await tagged.getByText('Sourdough day again').waitFor();
  await page.getByText('These are all the posts with this tag.').waitFor();
  assert.equal(await tagged.getByRole('article').count(), 2, 'the two public #baking posts; not the private one');
  assert.equal(await page.title(), '#baking · Hearth');
  await ui.screenshots('tag-page');

  // The tag address the APIs hand out (Hubzilla's /search?tag=) opens the same page.
  await page.goto('/search?tag=outdoors');
  await page.getByRole('region', { name: 'Posts tagged #outdoors' }).getByText('Climbing at dawn').waitFor();
});

test('the search box finds posts by their words and says when nothing is found', async () => {
  const { page } = ui;
  await page.goto('/');
  const box = page.getByRole('search').first().getByLabel('Search posts');
  await box.fill('patience');
  await box.press('Enter');
  await page.waitForURL('**/search?q=patience');
  const results = page.getByRole('region', { name: 'Results for patience' });
  await results.getByText('Rye needs patience').waitFor();
  assert.equal(await results.getByRole('article').count(), 1);
  await ui.screenshots('search-results');

  const again = page.getByRole('searchbox', { name: 'Search posts' });
  assert.equal(await again.inputValue(), 'patience', 'the search box shows what was searched');
  await again.fill('secret');
  await again.press('Enter');
  await page.getByText('Nothing found for “secret”.').waitFor();
});
