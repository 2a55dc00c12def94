import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { startHub, type TestHub } from '../helpers/hub.js';
import { connectMutually, createGroup, postStatus } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';

// Issue "owner's UI for daily use", item 15: keyboard and focus. A person using the keyboard keeps
// their place after Like, after posting and after closing a menu; the menus answer the keys
// people expect; the composer's fields show a focus ring.

let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob'] });
  await connectMutually(hub, 'alice', ['bob']);
  await createGroup(hub, 'alice', 'Family', ['bob']);
  // Enough posts that the page can scroll: a Space that reaches the page would move it.
  for (let i = 1; i <= 8; i++) await postStatus(hub, 'bob', `Bob's post number ${i}: ${'a long line of words '.repeat(12)}`);
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

/** What has the keyboard focus: "BUTTON Like", "TEXTAREA Message", or "BODY". */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'BODY';
    const label = el.getAttribute('aria-label') ?? (el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`)?.textContent : null) ?? el.textContent;
    return `${el.tagName} ${(label ?? '').trim().replace(/\s+/g, ' ')}`;
  });
}

/** Two frames: React's effects of the last update have run. */
const frames = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

async function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el === document.activeElement);
}

test('after Like the focus stays on the button: the next Space undoes the like instead of scrolling the page', async () => {
  const { page } = ui;
  await page.goto('/');
  const post = page.locator('article').filter({ hasText: "Bob's post number 7" });
  const like = post.getByRole('button', { name: 'Like', exact: true });
  await like.scrollIntoViewIfNeeded();
  await like.focus();
  await page.keyboard.press('Enter');
  const liked = post.getByRole('button', { name: /^Liked/ });
  await liked.waitFor();
  await post.getByText('Liked by Alice').waitFor();
  assert.ok(await isFocused(liked), `the focus is on the Like button, not on ${await focused(page)}`);
  await ui.screenshots('keyboard-after-like', { fullPage: false });

  const scrolled = await page.evaluate(() => scrollY);
  await page.keyboard.press('Space');
  await post.getByRole('button', { name: 'Like', exact: true }).waitFor();
  await post.getByText('Liked by Alice').waitFor({ state: 'detached' });
  assert.equal(await page.evaluate(() => scrollY), scrolled, 'Space did not scroll the page');
  assert.ok(await isFocused(like), `the focus is on the Like button, not on ${await focused(page)}`);
});

test('after posting, with the Post button or Ctrl+Enter, the focus is where it was', async () => {
  const { page } = ui;
  await page.goto('/');
  const composer = page.getByRole('form', { name: 'New post' });
  const body = composer.getByRole('textbox', { name: 'Message', exact: true });
  await body.fill('Posted with the keyboard');
  const postButton = composer.getByRole('button', { name: 'Post' });
  await postButton.focus();
  await page.keyboard.press('Enter');
  await page.locator('article').filter({ hasText: 'Posted with the keyboard' }).waitFor();
  await page.waitForFunction(() => !document.querySelector<HTMLTextAreaElement>('form[aria-label="New post"] textarea')?.disabled);
  await frames(page);
  assert.ok(await isFocused(postButton), `the focus is on the Post button, not on ${await focused(page)}`);

  await body.focus();
  await page.keyboard.type('And with Ctrl+Enter');
  await page.keyboard.press('Control+Enter');
  await page.locator('article').filter({ hasText: 'And with Ctrl+Enter' }).waitFor();
  await page.waitForFunction(() => !document.querySelector<HTMLTextAreaElement>('form[aria-label="New post"] textarea')?.disabled);
  await frames(page);
  assert.ok(await isFocused(body), `the focus is in the message box, not on ${await focused(page)}`);
  assert.equal(await body.inputValue(), '', 'ready for the next post');

  // A comment sent with its button: the box is ready for the next one.
  const post = page.locator('article').filter({ hasText: 'And with Ctrl+Enter' });
  await post.getByLabel('Write a comment').fill('A comment from the keyboard');
  await post.getByRole('button', { name: 'Comment' }).focus();
  await page.keyboard.press('Enter');
  await post.getByRole('list', { name: 'Comments' }).getByText('A comment from the keyboard').waitFor();
  await frames(page);
  assert.ok(await isFocused(post.getByLabel('Write a comment')), `the focus is in the comment box, not on ${await focused(page)}`);
});

test('the channel menu answers the arrow keys, Home and End; Escape closes it and gives the focus back to its button', async () => {
  const { page } = ui;
  await page.goto('/');
  const button = page.getByRole('button', { name: /^Channel Alice/ });
  const menu = page.getByRole('menu');
  await button.focus();
  await page.keyboard.press('Enter');
  await menu.waitFor();
  assert.equal(await button.getAttribute('aria-expanded'), 'true');
  const items = await menu.getByRole('menuitem').allInnerTexts();
  assert.deepEqual(items, ['Bob (bob)', 'New channel…', 'All channels', 'Log out']);
  const item = (name: string) => menu.getByRole('menuitem', { name });
  assert.ok(await isFocused(item('Bob (bob)')), `opening focuses the first item, not ${await focused(page)}`);

  await page.keyboard.press('ArrowDown');
  assert.ok(await isFocused(item('New channel…')), `ArrowDown: ${await focused(page)}`);
  await page.keyboard.press('ArrowDown');
  assert.ok(await isFocused(item('All channels')), `ArrowDown: ${await focused(page)}`);
  await ui.screenshots('keyboard-channel-menu', { fullPage: false });
  await page.keyboard.press('ArrowDown');
  assert.ok(await isFocused(item('Log out')), `ArrowDown: ${await focused(page)}`);
  await page.keyboard.press('ArrowDown');
  assert.ok(await isFocused(item('Bob (bob)')), `ArrowDown wraps around: ${await focused(page)}`);
  await page.keyboard.press('ArrowUp');
  assert.ok(await isFocused(item('Log out')), `ArrowUp wraps around: ${await focused(page)}`);
  await page.keyboard.press('Home');
  assert.ok(await isFocused(item('Bob (bob)')), `Home: ${await focused(page)}`);
  await page.keyboard.press('End');
  assert.ok(await isFocused(item('Log out')), `End: ${await focused(page)}`);

  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  assert.ok(await isFocused(button), `Escape gives the focus back to the menu button, not to ${await focused(page)}`);
  assert.equal(await button.getAttribute('aria-expanded'), 'false');

  // ArrowUp on the button opens the menu at its last item; Tab leaves and closes it.
  await page.keyboard.press('ArrowUp');
  await menu.waitFor();
  assert.ok(await isFocused(item('Log out')), `ArrowUp on the button: ${await focused(page)}`);
  await page.keyboard.press('Tab');
  await menu.waitFor({ state: 'detached' });
  assert.notEqual(await focused(page), 'BODY', 'Tab moved the focus on, not to the page');
  await button.focus();
  await page.keyboard.press('Enter');
  await menu.waitFor();
  await page.keyboard.press('Shift+Tab');
  await menu.waitFor({ state: 'detached' });
  assert.ok(await isFocused(button), `Shift+Tab closes the menu and goes back to its button, not to ${await focused(page)}`);

  // Choosing an item with the keyboard: the focus is not dropped either.
  await button.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await page.waitForURL('**/channels');
  assert.ok(await isFocused(button), `after choosing an item the focus is on the menu button, not on ${await focused(page)}`);
});

test('the audience panel closes with Escape or Done and gives the focus back to its button', async () => {
  const { page } = ui;
  await page.goto('/');
  const chip = page.getByRole('button', { name: /^Audience:/ });
  const panel = page.getByRole('group', { name: 'Who can see this post' });
  await chip.focus();
  await page.keyboard.press('Enter');
  await panel.waitFor();
  await page.keyboard.press('Tab');
  assert.match(await focused(page), /^INPUT/, 'Tab goes into the panel');
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });
  assert.ok(await isFocused(chip), `Escape gives the focus back to the audience button, not to ${await focused(page)}`);

  await page.keyboard.press('Enter');
  await panel.getByText('Only the groups and people I choose').click();
  await panel.getByRole('group', { name: 'Groups' }).getByText('Family').waitFor();
  await panel.getByRole('button', { name: 'Done' }).focus();
  await ui.screenshots('keyboard-audience-panel', { fullPage: false });
  await page.keyboard.press('Enter');
  await panel.waitFor({ state: 'detached' });
  assert.ok(await isFocused(chip), `Done gives the focus back to the audience button, not to ${await focused(page)}`);
});

test('the composer\'s fields show a focus ring all round, like every other field', async () => {
  const { page } = ui;
  await page.goto('/');
  const composer = page.getByRole('form', { name: 'New post' });
  for (const name of ['Title', 'Content warning', 'Message']) {
    const field = composer.getByRole('textbox', { name, exact: true });
    await field.focus();
    const style = await field.evaluate((el) => {
      for (const a of el.getAnimations()) a.finish();
      const s = getComputedStyle(el);
      return { ring: s.boxShadow, borders: [s.borderTopColor, s.borderRightColor, s.borderBottomColor, s.borderLeftColor], widths: [s.borderTopWidth, s.borderRightWidth, s.borderBottomWidth, s.borderLeftWidth] };
    });
    assert.match(style.ring, /rgba?\(194, 86, 42[^)]*\) 0px 0px 0px 3px/, `${name}: a 3 px ring (${style.ring})`);
    assert.deepEqual(new Set(style.borders).size, 1, `${name}: the same border colour on every side (${style.borders})`);
    assert.ok(style.widths.every((w) => w === '1px'), `${name}: a border on every side (${style.widths})`);
    if (name === 'Title') await ui.screenshots('keyboard-composer-focus', { fullPage: false });
  }
});
