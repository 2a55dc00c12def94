import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { apiCall, connect, createGroup, postStatus } from '../helpers/ui-fixtures.js';
import { noisyPng, openUi, pngOf, throttleUploads, type Ui } from '../helpers/ui.js';

let hub: TestHub;
let ui: Ui;

interface Status {
  id: number;
  friendica_title: string;
  friendica_private: boolean;
  text: string;
  friendica_activities: { like: Array<{ screen_name: string }> };
}

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob'] });
  await connect(hub, 'alice', 'bob');
  await connect(hub, 'bob', 'alice');
  await createGroup(hub, 'alice', 'Friends', ['bob']);
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

test('posting to a group from the composer shows the post in the stream as restricted', async () => {
  const { page } = ui;
  await page.goto('/');
  const composer = page.getByRole('form', { name: 'New post' });
  await composer.getByLabel('Title').fill('Picnic on Sunday');
  await composer.getByLabel('Message').fill('[b]Bring[/b] some bread');
  // The live preview, once opened, renders the BBCode as it is typed.
  await composer.getByRole('button', { name: 'Preview' }).click();
  await composer.getByRole('region', { name: 'Preview' }).locator('span', { hasText: 'Bring' }).waitFor();
  assert.equal(await composer.getByRole('region', { name: 'Preview' }).locator('span', { hasText: 'Bring' }).evaluate((el) => getComputedStyle(el).fontWeight), '700');

  await composer.getByRole('button', { name: /Audience: Public/ }).click();
  await composer.getByLabel('Only the groups and people I choose').check();
  await composer.getByLabel('Friends').check();
  await composer.getByRole('button', { name: 'Done' }).click();
  await composer.getByRole('button', { name: 'Audience: Friends' }).waitFor();
  await ui.screenshot('composer');
  await composer.getByRole('button', { name: 'Post' }).click();

  const post = page.getByRole('article').filter({ hasText: 'Picnic on Sunday' });
  await post.getByText('Visible to: Friends').waitFor();
  await post.locator('.post-content').getByText('Bring', { exact: true }).waitFor();
  assert.equal(await composer.getByLabel('Title').inputValue(), '', 'the composer is emptied after posting');
  await composer.getByRole('button', { name: 'Audience: Public' }).waitFor();
  await ui.screenshot('stream');

  const timeline = await apiCall<Status[]>(hub, 'alice', '/api/statuses/home_timeline', {}, 'GET');
  const stored = timeline.find((s) => s.friendica_title === 'Picnic on Sunday');
  assert.ok(stored, 'the post is in the owner timeline');
  assert.equal(stored.friendica_private, true);
  // Bob is in Friends, so the audience reached him.
  const seenByBob = await apiCall<Status>(hub, 'bob', '/api/statuses/show', { id: String(stored.id) }, 'GET');
  assert.equal(seenByBob.friendica_title, 'Picnic on Sunday');
});

test('a post with an attached photo and file shows the upload progress, then both', async () => {
  const slow = await openUi(hub, { as: 'alice' });
  try {
    const { page } = slow;
    await throttleUploads(page, 64 * 1024);
    await page.goto('/');
    const composer = page.getByRole('form', { name: 'New post' });
    await composer.getByLabel('Message').fill('Sunset from the balcony');
    const image = await noisyPng();
    assert.ok(image.length > 300_000, 'the test image is large enough to take a few seconds');
    await composer.getByLabel('Attach photos or files').setInputFiles({ name: 'sunset.png', mimeType: 'image/png', buffer: image });
    await composer.getByLabel('Attach more').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Camera: f/8, 1/250') });
    await composer.getByRole('list', { name: 'Attachments' }).getByText('sunset.png').waitFor();
    await composer.getByRole('list', { name: 'Attachments' }).getByText('notes.txt').waitFor();
    await composer.getByRole('button', { name: 'Post' }).click();
    // Part-way through, the bar shows how much has been sent.
    await page.waitForFunction(() => {
      const bar = document.querySelector('[role="progressbar"][aria-label="Uploading 2 files"]');
      const now = Number(bar?.getAttribute('aria-valuenow'));
      return now > 0 && now < 100;
    });
    await slow.screenshot('composer-upload');
    const post = page.getByRole('article').filter({ hasText: 'Sunset from the balcony' });
    await post.getByRole('link', { name: 'notes.txt' }).waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => [...document.querySelectorAll('article img:not(.avatar)')].some((img) => (img as HTMLImageElement).naturalWidth > 0));
    const fileUrl = await post.getByRole('link', { name: 'notes.txt' }).getAttribute('href');
    const file = await page.request.get(fileUrl!);
    assert.equal(await file.text(), 'Camera: f/8, 1/250');
  } finally {
    await slow.close();
  }
});

test('a post shows its title once and its attached photo once', async () => {
  const { page } = ui;
  const form = new FormData();
  form.append('title', 'Tom & Jerry\'s <best> "day"');
  form.append('body', 'What a day');
  form.append('media', new Blob([new Uint8Array(await pngOf({ r: 30, g: 120, b: 200 }))], { type: 'image/png' }), 'blue.png');
  const res = await hub.request('/api/z/1.0/item/update', { as: 'alice', method: 'POST', body: form });
  assert.equal(res.status, 200);
  const { item } = (await res.json()) as { item: { id: string } };
  await page.goto('/');
  const post = page.locator(`article[data-status-id="${item.id}"]`);
  await post.getByText('What a day').waitFor();
  await page.waitForFunction((id) => [...document.querySelectorAll(`article[data-status-id="${id}"] img:not(.avatar)`)].every((img) => (img as HTMLImageElement).naturalWidth > 0), item.id);
  assert.equal(await post.getByText('Tom & Jerry\'s <best> "day"', { exact: true }).count(), 1, 'the title is shown once');
  assert.equal(await post.locator('img:not(.avatar)').count(), 1, 'the photo is shown once');
  await ui.screenshots('post-title-photo', { fullPage: false });
});

test('liking, commenting, editing and deleting inline', async () => {
  const { page } = ui;
  const original = await postStatus(hub, 'alice', 'Original words', { title: 'Draft title' });
  await page.goto('/');
  const post = page.locator(`article[data-status-id="${original.id}"]`);
  await post.getByText('Original words').waitFor();

  await post.getByRole('button', { name: 'Like', exact: true }).first().click();
  await post.getByRole('button', { name: /Liked/ }).first().waitFor();
  await post.getByText('Liked by Alice').waitFor();

  await post.getByLabel('Write a comment').fill('A comment from the owner');
  await post.getByRole('button', { name: 'Comment' }).click();
  await post.getByRole('list', { name: 'Comments' }).getByText('A comment from the owner').waitFor();

  await post.getByRole('button', { name: 'Edit' }).first().click();
  const editor = post.getByRole('form', { name: 'Edit post' });
  await editor.getByLabel('Title').fill('Final title');
  await editor.getByLabel('Message').fill('Better words');
  await editor.getByRole('button', { name: 'Save changes' }).click();
  await post.getByRole('heading', { name: 'Final title' }).waitFor();
  await post.getByText('Better words').waitFor();

  const top = await apiCall<Status>(hub, 'alice', '/api/statuses/show', { id: String(original.id) }, 'GET');
  assert.equal(top.friendica_title, 'Final title');
  assert.ok(top.friendica_activities.like.some((u) => u.screen_name === 'alice'));
  const comments = await apiCall<Status[]>(hub, 'alice', '/api/conversation/show', { id: String(original.id) }, 'GET');
  assert.deepEqual(
    comments.map((c) => c.text),
    ['A comment from the owner'],
  );

  await post.getByRole('button', { name: 'Delete' }).first().click();
  await page.getByRole('dialog', { name: 'Delete this post?' }).getByRole('button', { name: 'Delete' }).click();
  await post.waitFor({ state: 'detached' });
  const after = await apiCall<Status[]>(hub, 'alice', '/api/statuses/home_timeline', {}, 'GET');
  assert.ok(!after.some((s) => s.id === original.id), 'the deleted post is gone from the timeline');
});

test('the stream loads older posts when scrolled to the end', async () => {
  const { page } = ui;
  for (let i = 1; i <= 14; i++) await postStatus(hub, 'bob', `Numbered post ${i}`);
  await page.goto('/');
  await page.getByText('Numbered post 14', { exact: true }).waitFor();
  // Only scrolling (no click) brings the oldest post: the first page holds ten threads.
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.getByText('Numbered post 1', { exact: true }).waitFor();
});

test('the stream works at phone width', async () => {
  const phone = await openUi(hub, { as: 'alice', viewport: { width: 390, height: 844 } });
  try {
    await phone.page.goto('/');
    await phone.page.getByRole('form', { name: 'New post' }).waitFor();
    await phone.page.getByRole('article').first().waitFor();
    await phone.page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Photos' }).waitFor();
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `no sideways scrolling at phone width (overflow ${overflow}px)`);
    await phone.screenshot('stream-phone', { fullPage: false });
  } finally {
    await phone.close();
  }
});
