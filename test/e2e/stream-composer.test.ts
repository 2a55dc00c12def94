import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startHub, type TestHub } from '../helpers/hub.js';
import { connectMutually, createGroup, postStatus } from '../helpers/ui-fixtures.js';
import { DESKTOP, openUi, PHONE } from '../helpers/ui.js';

// The owner's UI issue, item 9: a phone-first composer. On a phone the first screen shows posts
// and a compose button opens the composer; on the desktop the composer starts as one line that
// grows when it is focused.

let hub: TestHub;

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob'] });
  await connectMutually(hub, 'alice', ['bob']);
  await createGroup(hub, 'alice', 'Friends', ['bob']);
  await postStatus(hub, 'bob', 'Bob: the ferry leaves at nine tomorrow');
});

after(async () => {
  await hub?.stop();
});

/** The part of an element inside the viewport, above the phone's bottom bar, in px. */
async function visibleHeight(page: Page, selector: string): Promise<number> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return 0;
    const r = el.getBoundingClientRect();
    const bar = document.querySelector('nav[aria-label="Sections"]')?.getBoundingClientRect();
    const bottom = bar && bar.top > innerHeight / 2 ? bar.top : innerHeight;
    return Math.max(0, Math.min(r.bottom, bottom) - Math.max(r.top, 0));
  }, selector);
}

test('on a phone the first screen shows a post; the compose button opens the composer, which closes once posted', async () => {
  const ui = await openUi(hub, { as: 'alice', viewport: PHONE });
  try {
    const { page } = ui;
    await page.goto('/');
    await page.getByRole('article').first().waitFor();
    assert.ok((await visibleHeight(page, 'article')) >= 120, `the first post is on the first screen (${await visibleHeight(page, 'article')} px of it)`);
    assert.equal(await page.getByRole('form', { name: 'New post' }).isVisible(), false, 'the composer waits behind its button');
    await ui.screenshot('composer-phone-closed', { fullPage: false });

    await page.getByRole('button', { name: 'New post' }).click();
    const sheet = page.getByRole('dialog', { name: 'New post' });
    await sheet.waitFor();
    const message = sheet.getByLabel('Message');
    assert.equal(await message.evaluate((el) => el === document.activeElement), true, 'the text box has the focus');
    await message.fill('Posted from my phone on the bus');
    await ui.screenshot('composer-phone-open', { fullPage: false });
    await sheet.getByRole('button', { name: 'Close' }).click();
    await sheet.waitFor({ state: 'hidden' });
    // Closed and opened again: the draft is still there.
    await page.getByRole('button', { name: 'New post' }).click();
    assert.equal(await sheet.getByLabel('Message').inputValue(), 'Posted from my phone on the bus');
    await sheet.getByRole('button', { name: 'Post', exact: true }).click();
    await sheet.waitFor({ state: 'hidden' });
    await page.getByRole('article').filter({ hasText: 'Posted from my phone on the bus' }).waitFor();
    assert.ok((await visibleHeight(page, 'article')) >= 120, 'the stream is back on the first screen');
  } finally {
    await ui.close();
  }
});

test('on the desktop the composer starts as one line, grows when focused, and shrinks back when left empty', async () => {
  const ui = await openUi(hub, { as: 'alice', viewport: DESKTOP });
  try {
    const { page } = ui;
    await page.goto('/');
    const composer = page.getByRole('form', { name: 'New post' });
    const message = composer.getByLabel('Message');
    await message.waitFor();
    const oneLine = (await message.boundingBox())!.height;
    assert.ok(oneLine < 50, `one line at first (${oneLine} px)`);
    assert.equal(await composer.getByLabel('Title').isVisible(), false, 'no title field yet');
    assert.equal(await composer.getByRole('button', { name: 'Post', exact: true }).isVisible(), false);
    assert.ok((await visibleHeight(page, 'article')) >= 200, 'posts start high on the first screen');
    await ui.screenshots('composer-one-line', { fullPage: false });

    await message.click();
    await composer.getByLabel('Title').waitFor();
    assert.ok((await message.boundingBox())!.height > 90, 'the text box grows');
    await composer.getByRole('button', { name: 'Post', exact: true }).waitFor();
    // Choosing the audience with a click on its words, then Escape: the panel closes, not the composer.
    await composer.getByRole('button', { name: /^Audience/ }).click();
    await composer.getByText('Only the groups and people I choose').click();
    await composer.getByRole('group', { name: 'Groups' }).getByText('Friends').waitFor();
    await page.keyboard.press('Escape');
    await composer.getByRole('group', { name: 'Who can see this post' }).waitFor({ state: 'detached' });
    assert.equal(await composer.getByLabel('Title').isVisible(), true, 'the composer stays open');

    // Left empty: one line again, once the click elsewhere (a Like) has done what it was for.
    const bobs = page.getByRole('article').filter({ hasText: 'Bob: the ferry leaves at nine tomorrow' });
    await bobs.getByRole('button', { name: 'Like', exact: true }).click();
    await composer.getByLabel('Title').waitFor({ state: 'hidden' });
    assert.ok((await message.boundingBox())!.height < 50);
    await bobs.getByText('Liked by Alice').waitFor();

    // A draft keeps it open. Once posted it is empty and keeps the focus (issue item 15), so it
    // stays open until the owner moves on.
    await message.fill('A quiet Sunday at home');
    await composer.getByLabel('Title').fill('Sunday');
    await ui.screenshots('composer-grown', { fullPage: false });
    await page.getByText('Bob: the ferry leaves at nine tomorrow').click();
    assert.equal(await composer.getByLabel('Title').isVisible(), true, 'a draft is not hidden');
    const post = composer.getByRole('button', { name: 'Post', exact: true });
    await post.click();
    await page.getByRole('article').filter({ hasText: 'A quiet Sunday at home' }).waitFor();
    await page.waitForFunction(() => !document.querySelector<HTMLTextAreaElement>('form[aria-label="New post"] textarea')?.disabled);
    assert.equal(await message.inputValue(), '');
    assert.equal(await post.evaluate((el) => el === document.activeElement), true, 'the focus stays on Post');
    await page.getByText('Bob: the ferry leaves at nine tomorrow').click();
    await composer.getByLabel('Title').waitFor({ state: 'hidden' });
    assert.ok((await message.boundingBox())!.height < 50, 'one line again');
  } finally {
    await ui.close();
  }
});
