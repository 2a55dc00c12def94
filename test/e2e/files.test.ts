import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { apiCall, listedFiles } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';

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

test('a user creates a folder, opens it, uploads files into it, downloads one and deletes one after confirming', async () => {
  const { page } = ui;
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Files' }).click();
  await page.getByRole('heading', { name: 'Files', level: 1 }).waitFor();
  await page.getByText('No files yet.').waitFor();
  assert.equal(await page.title(), 'Files · Hearth');

  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('Recipes');
  await page.getByRole('button', { name: 'Create folder' }).click();
  const list = page.getByRole('list', { name: 'Files and folders' });
  await list.getByRole('link', { name: /Recipes/ }).click();
  await page.getByRole('heading', { name: 'Recipes', level: 1 }).waitFor();
  await page.getByText('This folder is empty.').waitFor();

  const soup = 'Leek and potato soup\n'.repeat(200);
  await page.getByLabel('Choose files to upload').setInputFiles([
    { name: 'soup.txt', mimeType: 'text/plain', buffer: Buffer.from(soup) },
    { name: 'bread.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n% a loaf\n') },
  ]);
  const uploads = page.getByRole('list', { name: 'Uploads' });
  await uploads.getByRole('listitem').filter({ hasText: 'soup.txt' }).getByText('Uploaded').waitFor();
  await uploads.getByRole('listitem').filter({ hasText: 'bread.pdf' }).getByText('Uploaded').waitFor();
  await list.getByText('soup.txt').waitFor();
  await list.getByText('bread.pdf').waitFor();

  const stored = await listed();
  const folder = stored.find((f) => f.filename === 'Recipes')!;
  assert.equal(folder.is_dir, '1');
  assert.deepEqual(
    stored.filter((f) => f.folder === folder.hash).map((f) => f.filename).sort(),
    ['bread.pdf', 'soup.txt'],
  );
  assert.equal(new URL(page.url()).pathname, '/files/Recipes', 'the folder\'s address is its name');
  await ui.screenshots('files-folder');

  const [download] = await Promise.all([page.waitForEvent('download'), list.getByRole('button', { name: 'Download soup.txt' }).click()]);
  assert.equal(download.suggestedFilename(), 'soup.txt');
  assert.equal(await readFile((await download.path())!, 'utf8'), soup);

  await list.getByRole('button', { name: 'Delete bread.pdf' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete “bread.pdf”?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await confirm.waitFor({ state: 'hidden' });
  assert.ok((await listed()).some((f) => f.filename === 'bread.pdf'), 'cancel keeps the file');
  await list.getByRole('button', { name: 'Delete bread.pdf' }).click();
  await ui.screenshots('files-delete-confirm', { fullPage: false });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await list.getByText('bread.pdf').waitFor({ state: 'detached' });
  assert.ok(!(await listed()).some((f) => f.filename === 'bread.pdf'));

  // Back to the top through the folder path; then the whole folder goes.
  await page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'Files' }).click();
  await page.getByRole('heading', { name: 'Files', level: 1 }).waitFor();
  await ui.screenshots('files');
  await list.getByRole('button', { name: 'Delete Recipes' }).click();
  const folderConfirm = page.getByRole('dialog', { name: 'Delete the folder “Recipes”?' });
  await folderConfirm.getByText('Everything in it goes too (1 item).').waitFor();
  await folderConfirm.getByRole('button', { name: 'Delete' }).click();
  await page.getByText('No files yet.').waitFor();
  assert.deepEqual(await listed(), []);
});

test('a folder name that is taken is refused with a message; nothing is created', async () => {
  const { page } = ui;
  await apiCall(hub, 'alice', '/api/z/1.0/file/folder', { name: 'Taxes' });
  await page.goto('/files');
  await page.getByRole('list', { name: 'Files and folders' }).getByText('Taxes').waitFor();
  ui.allowProblems(/\/api\/z\/1\.0\/file\/folder/);
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('Taxes');
  await page.getByRole('button', { name: 'Create folder' }).click();
  await page.getByText('The folder was not created: There is already a folder named “Taxes” here').waitFor();
  assert.equal((await listed()).filter((f) => f.filename === 'Taxes').length, 1);
});

test('files dropped on the page upload into the folder shown', async () => {
  const { page } = ui;
  const taxes = (await listed()).find((f) => f.filename === 'Taxes')!;
  await page.goto(`/files/${taxes.hash}`);
  await page.getByText('This folder is empty.').waitFor();
  const dataTransfer = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['income 2026'], 'income.csv', { type: 'text/csv' }));
    return dt;
  });
  await page.locator('.files-page').dispatchEvent('dragover', { dataTransfer });
  await page.locator('.files-page-dropping').waitFor();
  await page.locator('.files-page').dispatchEvent('drop', { dataTransfer });
  await page.getByRole('list', { name: 'Uploads' }).getByText('Uploaded').waitFor();
  await page.getByRole('list', { name: 'Files and folders' }).getByText('income.csv').waitFor();
  assert.equal(await page.locator('.files-page-dropping').count(), 0);
  assert.deepEqual((await listed()).filter((f) => f.folder === taxes.hash).map((f) => f.filename), ['income.csv']);
});
