import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { onePagePdf } from '../helpers/pdf.js';
import { apiCall, listedFiles } from '../helpers/ui-fixtures.js';
import { openUi, pngOf, type Ui } from '../helpers/ui.js';

// Files and albums: folders at readable addresses; pictures and PDFs shown in the page; the album
// a post's photos go to is named (and can be changed) in the composer; deleting a folder that is an
// album first says which posts show its photos.

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

const listed = () => listedFiles(hub, 'alice');

test('folders have addresses of their names, which open them again; an old address by hash leads there too', async () => {
  const { page } = ui;
  await page.goto('/files');
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('Trips');
  await page.getByRole('button', { name: 'Create folder' }).click();
  const list = page.getByRole('list', { name: 'Files and folders' });
  await list.getByRole('link', { name: /Trips/ }).click();
  await page.getByRole('heading', { name: 'Trips', level: 1 }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/files/Trips');
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('Summer 2026');
  await page.getByRole('button', { name: 'Create folder' }).click();
  await list.getByRole('link', { name: /Summer 2026/ }).click();
  await page.getByRole('heading', { name: 'Summer 2026', level: 1 }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/files/Trips/Summer%202026');

  await page.reload();
  await page.getByRole('heading', { name: 'Summer 2026', level: 1 }).waitFor();
  await page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'Trips' }).click();
  await page.getByRole('heading', { name: 'Trips', level: 1 }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/files/Trips');

  const summer = (await listed()).find((f) => f.filename === 'Summer 2026')!;
  await page.goto(`/files/${summer.hash}`);
  await page.getByRole('heading', { name: 'Summer 2026', level: 1 }).waitFor();
  await page.waitForURL('**/files/Trips/Summer%202026');
});

test('a picture and a PDF open in the page', async () => {
  const { page } = ui;
  await page.goto('/files/Trips');
  await page.getByLabel('Choose files to upload').setInputFiles([
    { name: 'map.png', mimeType: 'image/png', buffer: await pngOf({ r: 30, g: 120, b: 200 }, 480, 320) },
    { name: 'tickets.pdf', mimeType: 'application/pdf', buffer: onePagePdf('Train tickets') },
  ]);
  const list = page.getByRole('list', { name: 'Files and folders' });
  await list.getByText('tickets.pdf').waitFor();
  await list.getByText('map.png').waitFor();

  await list.getByRole('button', { name: 'Preview map.png' }).click();
  const picture = page.getByRole('dialog', { name: 'map.png' });
  const img = picture.getByRole('img', { name: 'map.png' });
  await img.waitFor();
  await page.waitForFunction(() => (document.querySelector('.file-preview img') as HTMLImageElement | null)?.naturalWidth === 480);
  await ui.screenshots('files-preview-picture', { fullPage: false });
  await picture.getByRole('button', { name: 'Close' }).click();

  await list.getByRole('button', { name: 'Preview tickets.pdf' }).click();
  const pdf = page.getByRole('dialog', { name: 'tickets.pdf' });
  await pdf.locator('iframe[title="tickets.pdf (PDF)"]').waitFor();
  // The browser's own PDF viewer shows it inside the frame.
  for (let i = 0; i < 50 && !page.frames().some((f) => f.url().startsWith('chrome-extension://')); i++) await page.waitForTimeout(100);
  assert.ok(page.frames().some((f) => f.url().startsWith('chrome-extension://')), 'the PDF viewer runs in the frame');
  await page.waitForTimeout(500);
  await ui.screenshots('files-preview-pdf', { fullPage: false });
  await pdf.getByRole('button', { name: 'Close' }).click();
});

test('the composer names the album its photos go to; deleting that album in Files first lists the posts showing them', async () => {
  const { page } = ui;
  await page.goto('/');
  const composer = page.getByRole('form', { name: 'New post' });
  await composer.getByLabel('Message').fill('Sunflowers at last');
  await composer.getByLabel('Attach photos or files').setInputFiles({ name: 'sunflower.png', mimeType: 'image/png', buffer: await pngOf({ r: 230, g: 190, b: 30 }, 640, 480) });
  const album = composer.getByLabel('Photos go to the album');
  const now = new Date();
  assert.equal(await album.inputValue(), `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`, 'this month\'s album, named');
  await album.fill('Garden');
  await ui.screenshots('composer-album', { fullPage: false });
  await composer.getByRole('button', { name: 'Post' }).click();
  await page.getByText('Your photos are in the album “Garden”, under Photos.').waitFor();
  const post = page.getByRole('article').filter({ hasText: 'Sunflowers at last' });
  await post.getByRole('group', { name: 'Photo' }).waitFor();
  const albums = await apiCall<{ albums: { text: string; total: string }[] }>(hub, 'alice', '/api/z/1.0/albums', {}, 'GET');
  assert.equal(albums.albums.find((a) => a.text === 'Garden')?.total, '1');

  await page.goto('/files');
  const list = page.getByRole('list', { name: 'Files and folders' });
  await list.getByRole('button', { name: 'Delete Garden' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete the folder “Garden”?' });
  await confirm.getByText('“Garden” is a photo album: its photo goes too, from Photos and from every post that shows it.').waitFor();
  const usage = confirm.getByRole('note', { name: 'Posts showing these photos' });
  await usage.getByRole('link', { name: 'Sunflowers at last' }).waitFor();
  await ui.screenshots('files-delete-album', { fullPage: false });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await list.getByText('Garden').waitFor({ state: 'detached' });
  await page.goto('/');
  await page.getByRole('article').filter({ hasText: 'Sunflowers at last' }).getByText('Photo removed').waitFor();
});
