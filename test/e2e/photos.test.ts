import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startHub, type TestHub } from '../helpers/hub.js';
import { apiCall, profilePhotoBytes } from '../helpers/ui-fixtures.js';
import { openUi, pngOf, type Ui } from '../helpers/ui.js';

let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice'] });
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

interface ListedPhoto {
  id: string;
  album: string;
  desc?: string;
}

/** Waits until this many of the images (at least one when no count is given) have loaded; a function, since the UI's CSP forbids evaluating strings. */
const imagesLoaded = (page: Page, selector: string, count?: number) =>
  page.waitForFunction(
    ([sel, n]) => {
      const loaded = [...document.querySelectorAll<HTMLImageElement>(sel)].filter((img) => img.complete && img.naturalWidth > 0).length;
      return n === null ? loaded > 0 : loaded === n;
    },
    [selector, count ?? null] as const,
  );

test('uploading two photos into a new album shows their thumbnails; the album can be renamed', async () => {
  const { page } = ui;
  await page.goto('/photos');
  await page.getByText('No photos yet.').waitFor();

  await page.getByRole('button', { name: 'Upload photos' }).click();
  await page.getByLabel('Album').fill('Holiday');
  await page.getByLabel('Choose photos to upload').setInputFiles([
    { name: 'beach.png', mimeType: 'image/png', buffer: await pngOf({ r: 30, g: 140, b: 200 }, 400, 300) },
    { name: 'dunes.png', mimeType: 'image/png', buffer: await pngOf({ r: 220, g: 180, b: 90 }, 300, 400) },
  ]);
  const uploads = page.getByRole('list', { name: 'Uploads' });
  await uploads.getByRole('listitem').filter({ hasText: 'beach.png' }).getByText('Uploaded').waitFor();
  await uploads.getByRole('listitem').filter({ hasText: 'dunes.png' }).getByText('Uploaded').waitFor();

  const album = page.getByRole('list', { name: 'Albums' }).getByRole('link', { name: /Holiday/ });
  await album.getByText('2 photos').waitFor();
  await imagesLoaded(page, '.album-cover img');
  await ui.screenshot('albums');

  await album.click();
  await page.getByRole('heading', { name: 'Holiday' }).waitFor();
  await imagesLoaded(page, '.photo-grid img', 2);
  await ui.screenshot('album');

  await page.getByRole('button', { name: 'Rename album' }).click();
  await page.getByRole('dialog', { name: 'Rename album' }).getByLabel('New name').fill('Summer by the sea');
  await page.getByRole('dialog', { name: 'Rename album' }).getByRole('button', { name: 'Rename' }).click();
  await page.getByRole('heading', { name: 'Summer by the sea' }).waitFor();
  await imagesLoaded(page, '.photo-grid img', 2);
  assert.match(decodeURIComponent(new URL(page.url()).pathname), /\/photos\/album\/Summer by the sea$/);

  const listed = await apiCall<ListedPhoto[]>(hub, 'alice', '/api/ext/photos/list', {}, 'GET');
  assert.deepEqual(
    listed.map((p) => p.album),
    ['Summer by the sea', 'Summer by the sea'],
  );
});

test('the viewer steps through photos, saves a caption and deletes after confirmation', async () => {
  const { page } = ui;
  const before = await apiCall<ListedPhoto[]>(hub, 'alice', '/api/ext/photos/list', {}, 'GET');
  assert.equal(before.length, 2);
  await page.goto(`/photos/album/${encodeURIComponent('Summer by the sea')}`);
  await page.locator('.photo-grid a').first().click();
  const viewer = page.getByRole('dialog');
  await viewer.locator('.viewer-image').waitFor();
  await viewer.getByText('1 of 2').waitFor();
  await viewer.getByRole('button', { name: 'Next photo' }).click();
  await viewer.getByText('2 of 2').waitFor();
  await page.keyboard.press('ArrowLeft');
  await viewer.getByText('1 of 2').waitFor();

  await viewer.getByLabel('Caption').fill('Waves at noon');
  await viewer.getByRole('button', { name: 'Save' }).click();
  await viewer.getByRole('button', { name: 'Save' }).and(page.locator(':disabled')).waitFor();
  await page.waitForFunction(() => (document.querySelector('.viewer-image') as HTMLImageElement | null)?.naturalWidth);
  await ui.screenshot('photo-viewer');
  const captioned = await apiCall<ListedPhoto[]>(hub, 'alice', '/api/ext/photos/list', {}, 'GET');
  const shownId = new URL(page.url()).searchParams.get('photo');
  const stored = await apiCall<{ desc: string }>(hub, 'alice', '/api/ext/photo', { photo_id: shownId! }, 'GET');
  assert.equal(stored.desc, 'Waves at noon');
  assert.equal(captioned.length, 2);

  const photoBefore = await profilePhotoBytes(hub, 'alice');
  await viewer.getByRole('button', { name: 'Use as profile photo' }).click();
  await page.getByText('This photo is now your profile photo.').waitFor();
  assert.match((await page.getByRole('button', { name: /^Channel Alice/ }).locator('img').getAttribute('src')) ?? '', /[?&]v=\d+/, 'the header shows the new photo');
  assert.notDeepEqual(await profilePhotoBytes(hub, 'alice'), photoBefore);

  await viewer.getByRole('button', { name: 'Delete photo' }).click();
  await viewer.getByRole('button', { name: 'Delete', exact: true }).click();
  await viewer.getByText('1 of 1').waitFor();
  const remaining = await apiCall<ListedPhoto[]>(hub, 'alice', '/api/ext/photos/list', {}, 'GET');
  assert.deepEqual(
    remaining.filter((p) => p.album === 'Summer by the sea').map((p) => p.id),
    before.map((p) => p.id).filter((id) => id !== shownId),
  );
});

test('photos dropped on an album upload there; a photo moves to another album; an album is deleted after confirmation', async () => {
  const { page } = ui;
  await page.goto(`/photos/album/${encodeURIComponent('Summer by the sea')}`);
  await imagesLoaded(page, '.photo-grid img', 1);

  const files = await Promise.all(
    [
      ['shell.png', { r: 250, g: 220, b: 200 }],
      ['gull.png', { r: 240, g: 240, b: 245 }],
    ].map(async ([name, color]) => ({ name: name as string, data: (await pngOf(color as { r: number; g: number; b: number })).toString('base64') })),
  );
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0))], f.name, { type: 'image/png' }));
    return dt;
  }, files);
  await page.locator('.dropzone').dispatchEvent('drop', { dataTransfer });
  await page.getByRole('list', { name: 'Uploads' }).getByRole('listitem').filter({ hasText: 'gull.png' }).getByText('Uploaded').waitFor();
  await page.getByText('3 photos').waitFor();
  await imagesLoaded(page, '.photo-grid img', 3);

  await page.locator('.photo-grid a').last().click();
  const viewer = page.getByRole('dialog');
  await viewer.locator('.viewer-image').waitFor();
  await viewer.getByLabel('Album').fill('Elsewhere');
  await viewer.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The photo was moved to “Elsewhere”.').waitFor();
  await viewer.waitFor({ state: 'detached' });
  await page.getByText('2 photos').waitFor();

  await page.getByRole('link', { name: '← All albums' }).click();
  await page.getByRole('list', { name: 'Albums' }).getByRole('link', { name: /Elsewhere\s*1 photo/ }).click();
  await page.getByRole('heading', { name: 'Elsewhere' }).waitFor();
  await page.getByRole('button', { name: 'Delete album' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete the album “Elsewhere”?' });
  await confirm.getByText('The photo in it will be deleted for good.', { exact: false }).waitFor();
  await confirm.getByRole('button', { name: 'Delete album' }).click();
  await page.waitForURL(/\/photos$/);
  await page.getByRole('list', { name: 'Albums' }).getByRole('link', { name: /Summer by the sea\s*2 photos/ }).waitFor();
  assert.equal(await page.getByRole('list', { name: 'Albums' }).getByRole('link', { name: /Elsewhere/ }).count(), 0);
  const listed = await apiCall<ListedPhoto[]>(hub, 'alice', '/api/ext/photos/list', {}, 'GET');
  assert.equal(listed.filter((p) => p.album === 'Elsewhere').length, 0);
  assert.equal(listed.filter((p) => p.album === 'Summer by the sea').length, 2);
});

test('deleting an album names the posts showing its photos first; afterwards they say "photo removed"', async () => {
  const { page } = ui;
  const form = new FormData();
  form.append('body', 'The view from the top');
  form.append('title', 'Mountain day');
  form.append('media', new Blob([new Uint8Array(await pngOf({ r: 90, g: 160, b: 90 }, 200, 150))], { type: 'image/png' }), 'summit.png');
  const res = await hub.request('/api/z/1.0/item/update', { as: 'alice', method: 'POST', body: form });
  assert.equal(res.status, 200);
  const { item } = (await res.json()) as { item: { id: string; body: string } };
  const resourceId = /\/photo\/([0-9a-f]{64})-/.exec(item.body)![1]!;
  const { album } = await apiCall<{ album: string }>(hub, 'alice', '/api/ext/photo', { photo_id: resourceId }, 'GET');

  await page.goto(`/photos/album/${encodeURIComponent(album)}`);
  await page.getByRole('heading', { name: album }).waitFor();
  await page.getByRole('button', { name: 'Delete album' }).click();
  const dialog = page.getByRole('dialog', { name: `Delete the album “${album}”?` });
  const usage = dialog.getByRole('note', { name: 'Posts showing these photos' });
  await usage.getByRole('link', { name: 'Mountain day' }).waitFor();
  assert.match(await usage.innerText(), /This post shows photos of this album/);
  await ui.screenshots('album-delete-warning', { fullPage: false });
  await dialog.getByRole('button', { name: 'Delete album' }).click();
  await page.waitForURL('**/photos');

  await page.goto(`/item/${item.id}`);
  const post = page.locator(`article[data-status-id="${item.id}"]`);
  await post.getByText('The view from the top').waitFor();
  await post.locator('.photo-removed', { hasText: 'Photo removed: summit.png' }).waitFor();
  assert.equal(await post.locator('img:not(.avatar)').count(), 0, 'no broken image is left');
  await ui.screenshots('post-photo-removed', { fullPage: false });
});
