import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { connectMutually, postStatus } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';

// The owner's UI issue, item 11: a long stream stays light. Posts far off screen are taken out of
// the page (an empty box of their height keeps the page's length), and come back when scrolled to;
// a post holding words the owner typed stays. The figures for 500 posts: bench/ui-stream.ts.

const POSTS = 60;

let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob'] });
  await connectMutually(hub, 'alice', ['bob']);
  for (let i = 1; i <= POSTS; i++) await postStatus(hub, 'bob', `Long stream post ${i}: ${'a few words more '.repeat(1 + (i % 5))}`);
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

const inPage = () => ui.page.locator('article[data-status-id]').count();

test('scrolled to the end of a long stream, only the posts near the screen are in the page; scrolled back, they return', async () => {
  const { page } = ui;
  await page.goto('/');
  const newest = page.getByRole('article').filter({ hasText: `Long stream post ${POSTS}:` });
  // A comment begun on the newest post, not sent.
  await newest.getByLabel('Write a comment').fill('A draft I mean to finish');
  await page.mouse.click(10, 600);

  // Down with the mouse wheel to the bottom, until the stream says there is no more.
  const end = page.getByText('You have reached the beginning of your stream.');
  const atBottom = () => page.evaluate(() => Boolean(document.querySelector('.stream-end')) && scrollY + innerHeight >= document.documentElement.scrollHeight - 2);
  await page.mouse.move(600, 500);
  for (let i = 0; i < 300 && !(await atBottom()); i++) {
    await page.mouse.wheel(0, 1200);
    await page.waitForTimeout(50);
  }
  await end.waitFor();
  await page.getByRole('article').filter({ hasText: 'Long stream post 1:' }).waitFor();
  const atEnd = await inPage();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await ui.screenshot('stream-long-end', { fullPage: false });
  assert.ok(atEnd <= 25, `${atEnd} of ${POSTS} posts in the page at the end`);
  assert.ok(height > POSTS * 150, `the page keeps its length (${height} px)`);
  assert.equal(await page.locator('textarea').evaluateAll((all) => all.filter((t) => (t as HTMLTextAreaElement).value === 'A draft I mean to finish').length), 1, 'the post with a draft stays');

  // Back to the top: the newest posts are there again, the draft with them.
  for (let i = 0; i < 300 && (await page.evaluate(() => scrollY)) > 0; i++) {
    await page.mouse.wheel(0, -1200);
    await page.waitForTimeout(50);
  }
  await newest.waitFor();
  assert.equal(await newest.getByLabel('Write a comment').inputValue(), 'A draft I mean to finish');
  await page.getByRole('article').filter({ hasText: `Long stream post ${POSTS - 3}:` }).waitFor();
  assert.ok((await inPage()) <= 25, 'the oldest posts went out of the page again');
  const heightNow = await page.evaluate(() => document.documentElement.scrollHeight);
  assert.ok(Math.abs(heightNow - height) < height * 0.02, `the page kept its length (${heightNow} px, was ${height} px)`);
  await ui.screenshots('stream-long-top', { fullPage: false });
});

test('far down a long stream, a new post’s bar is on the screen, and a click shows the post at the top', async () => {
  const { page } = ui;
  await page.goto('/');
  await page.getByRole('article').filter({ hasText: `Long stream post ${POSTS}:` }).waitFor();
  await page.mouse.move(600, 500);
  for (let i = 0; i < 8; i++) {
    await page.mouse.wheel(0, 1200);
    await page.waitForTimeout(50);
  }
  assert.ok((await page.evaluate(() => scrollY)) > 3000, 'the reader is far down');
  await postStatus(hub, 'bob', 'Bob: a new post while Alice reads');
  const bar = page.getByRole('button', { name: 'Show 1 new post' });
  await bar.waitFor();
  assert.equal(await bar.evaluate((el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }), true, 'the bar is on the screen');
  await ui.screenshots('stream-long-new-post-bar', { fullPage: false });
  await bar.click();
  const fresh = page.getByRole('article').filter({ hasText: 'Bob: a new post while Alice reads' });
  await fresh.waitFor();
  await page.waitForFunction(() => scrollY === 0);
  assert.equal(await page.locator('article[data-status-id]').first().evaluate((el) => el.textContent?.includes('Bob: a new post while Alice reads')), true, 'on top');
});
