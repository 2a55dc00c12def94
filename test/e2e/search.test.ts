import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { connect, postStatus } from '../helpers/ui-fixtures.js';
import { DESKTOP, openUi, PHONE, type Ui } from '../helpers/ui.js';
import { insertXchanIfMissing } from '../../server/store/channel-import.js';
import { getXchan } from '../../server/store/xchans.js';

// Search: "Bob" finds people, here and elsewhere, above the posts; the words found are marked;
// a word only in a post's hidden markup (an image URL) is no match; there is one search box.

let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob', 'carol'] });
  for (const other of ['bob', 'carol']) {
    await connect(hub, 'alice', other);
    await connect(hub, other, 'alice');
  }
  // Someone on another server the hub knows of (an ActivityPub actor met before).
  const { xchan_id: _id, ...model } = getXchan(hub.hub.db, hub.channels.carol!.channel_hash)!;
  insertXchanIfMissing(hub.hub.db, {
    ...model, xchan_hash: 'https://remote.example/users/bobby', xchan_guid: 'https://remote.example/users/bobby', xchan_addr: 'bobby@remote.example',
    xchan_url: 'https://remote.example/users/bobby', xchan_connurl: '', xchan_follow: '', xchan_connpage: '', xchan_name: 'Bobby Remote', xchan_network: 'activitypub',
    xchan_instance_url: 'https://remote.example', xchan_pubkey: '', xchan_photo_l: '', xchan_photo_m: '', xchan_photo_s: '',
  });
  await postStatus(hub, 'carol', 'Lunch with Bob on Friday, bring tomatoes');
  // The picture is one the hub serves (Carol's avatar); the word is in its URL only.
  await postStatus(hub, 'carol', `[img]${hub.url}/photo/profile/l/${hub.channels.carol!.channel_id}?sunflower-field[/img] The garden in August`);
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

test('searching "bob" from the top bar finds Bob and Bobby elsewhere above the posts, the words marked, in the one search box', async () => {
  const { page } = ui;
  await page.goto('/');
  const box = page.getByRole('searchbox', { name: 'Search posts and people' });
  assert.equal(await box.count(), 1, 'one search box');
  await box.fill('bob');
  await box.press('Enter');
  await page.waitForURL('**/search?q=bob');

  const people = page.getByRole('list', { name: 'People named bob' });
  await people.getByRole('link', { name: /Bob\b/ }).first().waitFor();
  const names = await people.locator('.person-name').allInnerTexts();
  assert.deepEqual(names.sort(), ['Bob', 'Bobby Remote']);
  assert.deepEqual(await people.locator('mark').allInnerTexts(), ['Bob', 'bob', 'Bob', 'bob'], 'the part of each name and address that matched');
  await people.getByText('@bobby@remote.example').waitFor();

  const results = page.getByRole('region', { name: 'Results for bob' });
  const post = results.getByRole('article').filter({ hasText: 'Lunch with Bob on Friday' });
  await post.locator('mark', { hasText: 'Bob' }).waitFor();
  assert.equal(await results.locator('mark').count(), 1, 'only the word found is marked');

  assert.equal(await page.getByRole('searchbox').count(), 1, 'one search box on the results page');
  assert.equal(await page.getByRole('searchbox').inputValue(), 'bob', 'holding what was searched');
  await ui.screenshots('search-people-and-posts');
  await page.setViewportSize(PHONE);
  assert.equal(await page.getByRole('searchbox').count(), 1, 'one search box on a phone too');
  assert.equal(await page.getByRole('searchbox').inputValue(), 'bob');
  await page.setViewportSize(DESKTOP);
});

test('a word only in an image URL of a post finds nothing; its text does, marked', async () => {
  const { page } = ui;
  await page.goto('/');
  const box = page.getByRole('searchbox', { name: 'Search posts and people' });
  await box.fill('sunflower');
  await box.press('Enter');
  await page.getByText('Nothing found for “sunflower”.').waitFor();
  await ui.screenshots('search-hidden-markup');

  await page.getByRole('searchbox').fill('garden');
  await page.getByRole('searchbox').press('Enter');
  const post = page.getByRole('region', { name: 'Results for garden' }).getByRole('article').filter({ hasText: 'The garden in August' });
  await post.locator('mark', { hasText: 'garden' }).waitFor();
  assert.equal(await page.getByRole('list', { name: 'People named garden' }).count(), 0, 'no people section when nobody is named so');
});
