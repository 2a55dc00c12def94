import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { connectMutually } from '../helpers/ui-fixtures.js';
import { openUi, pngOf, type Ui } from '../helpers/ui.js';

// Photos in posts: a grid (one large, two, three, four and more), not 320 px thumbnails with a gap
// under them; a click opens the albums' photo viewer in the page, not a new tab.

let hub: TestHub;
let ui: Ui;

const COLOURS = [
  { r: 200, g: 60, b: 40 },
  { r: 40, g: 140, b: 70 },
  { r: 50, g: 80, b: 190 },
  { r: 220, g: 180, b: 40 },
  { r: 120, g: 50, b: 150 },
  { r: 30, g: 160, b: 170 },
];

/** A post with photos, as an app sends it (item/update with media). */
async function postWithPhotos(as: string, text: string, count: number): Promise<void> {
  const form = new FormData();
  form.append('body', text);
  for (let i = 0; i < count; i++) form.append('media', new Blob([new Uint8Array(await pngOf(COLOURS[i]!, 900, 600))], { type: 'image/png' }), `${as}-${i + 1}.png`);
  const res = await hub.request('/api/z/1.0/item/update', { as, method: 'POST', body: form });
  assert.equal(res.status, 200, await res.text());
}

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob', 'carol'] });
  await connectMutually(hub, 'alice', ['bob', 'carol']);
  await postWithPhotos('bob', 'One from the hills', 1);
  await postWithPhotos('carol', 'Six from the market', 6);
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

/** Where the tiles of a post's grid are: their distinct columns and rows, and their sizes. */
async function tiles(post: import('playwright-core').Locator) {
  const boxes = await post.locator('.post-photo').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect));
  return { boxes, columns: new Set(boxes.map((b) => Math.round(b.x))).size, rows: new Set(boxes.map((b) => Math.round(b.y))).size };
}

async function imagesLoaded(ui: Ui): Promise<void> {
  await ui.page.waitForFunction(() => [...document.querySelectorAll('.post-photo img')].every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0));
}

test('three photos attached in the composer show as a grid and open in the albums\' viewer, in the page', async () => {
  const { page } = ui;
  await page.goto('/');
  const composer = page.getByRole('form', { name: 'New post' });
  await composer.getByLabel('Message').fill('Three from the garden');
  await composer.getByLabel('Attach photos or files').setInputFiles(
    await Promise.all([0, 1, 2].map(async (i) => ({ name: `garden-${i + 1}.png`, mimeType: 'image/png', buffer: await pngOf(COLOURS[i]!, 900, 600) }))),
  );
  await composer.getByRole('button', { name: 'Post' }).click();
  const post = page.getByRole('article').filter({ hasText: 'Three from the garden' });
  const grid = post.getByRole('group', { name: '3 photos' });
  await grid.waitFor();
  await imagesLoaded(ui);
  const { boxes, columns, rows } = await tiles(post);
  assert.equal(boxes.length, 3);
  assert.deepEqual(await grid.locator('img').evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).alt)), ['garden-1.png', 'garden-2.png', 'garden-3.png'], 'in the order attached');
  assert.equal(columns, 2, 'one tall photo beside two');
  assert.equal(rows, 2);
  const content = await post.locator('.post-content').evaluate((el) => el.getBoundingClientRect().width);
  const gridBox = (await grid.boundingBox())!;
  assert.ok(Math.abs(gridBox.width - content) < 2, 'the grid takes the width of the post');
  assert.ok(boxes.every((b) => b.width > 150 && b.height > 150), 'no thumbnails');
  // No gap under the grid: the text follows it directly.
  const text = (await post.locator('.post-content').getByText('Three from the garden').boundingBox())!;
  assert.ok(text.y - (gridBox.y + gridBox.height) < 24, `the text follows the grid (gap ${text.y - (gridBox.y + gridBox.height)} px)`);
  // The note saying which album the photos went to would cover the grid in the pictures.
  await page.getByRole('status').filter({ hasText: 'Your photos are in the album' }).getByRole('button', { name: 'Dismiss message' }).click();
  await ui.screenshots('post-photos-three');

  const pagesBefore = ui.context.pages().length;
  const urlBefore = page.url();
  await grid.getByRole('link', { name: /Open photo 2 of 3/ }).click();
  const viewer = page.getByRole('dialog');
  await viewer.getByText('2 of 3').waitFor();
  await viewer.getByLabel('Caption').waitFor();
  assert.equal(ui.context.pages().length, pagesBefore, 'no new tab');
  assert.equal(page.url(), urlBefore, 'the stream stays where it was');
  await page.keyboard.press('ArrowRight');
  await viewer.getByText('3 of 3').waitFor();
  await page.waitForFunction(() => (document.querySelector('.viewer-image') as HTMLImageElement | null)?.naturalWidth === 640, undefined, { timeout: 10_000 });
  await ui.screenshots('post-photos-viewer', { fullPage: false });
  await page.keyboard.press('Escape');
  await viewer.waitFor({ state: 'detached' });
});

test('one photo shows large; six show as four tiles, the last saying +2; someone else\'s open in the viewer without editing', async () => {
  const { page } = ui;
  await page.goto('/');
  const bobs = page.getByRole('article').filter({ hasText: 'One from the hills' });
  const one = bobs.getByRole('group', { name: 'Photo' });
  await one.waitFor();
  await imagesLoaded(ui);
  const single = (await one.locator('img').boundingBox())!;
  assert.ok(single.width > 320, `larger than the old thumbnail (${single.width} px)`);

  const carols = page.getByRole('article').filter({ hasText: 'Six from the market' });
  const six = carols.getByRole('group', { name: '6 photos' });
  const { boxes, columns, rows } = await tiles(carols);
  assert.equal(boxes.length, 4, 'four tiles');
  assert.equal(columns, 2);
  assert.equal(rows, 2);
  assert.equal((await six.locator('.post-photo-more').innerText()).trim(), '+2');
  await ui.screenshots('post-photos-one-and-six');

  await six.getByRole('link', { name: /Open photo 4 of 6/ }).click();
  const viewer = page.getByRole('dialog');
  await viewer.getByText('4 of 6').waitFor();
  assert.equal(await viewer.getByLabel('Caption').count(), 0, 'Carol\'s photos are hers to edit');
  await viewer.getByRole('button', { name: 'Next photo' }).click();
  await viewer.getByText('5 of 6').waitFor();
  await viewer.getByRole('button', { name: 'Next photo' }).click();
  await viewer.getByText('6 of 6').waitFor();
  await page.waitForFunction(() => ((document.querySelector('.viewer-image') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0);
  await ui.screenshots('post-photos-viewer-others', { fullPage: false });
  await viewer.getByRole('button', { name: 'Close' }).click();
});
